-- Specs for the counter screen: sendingstate test examples/counter (from any folder)
local ss = require "sendingstate"

describe("counter", function()
  ---@type SSScreen
  local screen

  before_each(function()
    screen = ss.open("counter.lua")
  end)

  it("starts with the initial state", function()
    assert.are.same({ title = "Product", count = 1 }, screen.state)
    assert.are.equal("1", screen.view.count.text)
  end)

  it("increments on tap", function()
    screen:tap("plus")
    screen:tap("plus")
    assert.are.equal(3, screen.state.count)
    assert.are.equal("3", screen.view.count.text)
    assert.are.same({ { type = "increment" }, { type = "increment" } }, screen.actions)
  end)

  it("disables minus at zero", function()
    screen:tap("minus")
    assert.are.equal(0, screen.state.count)
    assert.is_false(screen.view.minus.enabled)
  end)

  it("resets on a double tap of the count", function()
    screen:tap("plus")
    screen:gesture("count", "tap", { taps = 2 })
    assert.are.equal(0, screen.state.count)
  end)

  it("starts from a given state", function()
    local other = ss.open("counter.lua", { state = { title = "Tea", count = 41 } })
    other:tap("plus")
    assert.are.equal(42, other.state.count)
    assert.are.equal("Tea", other.view.title.text)
  end)

  it("reports unknown ids", function()
    assert.has_error(function() screen:tap("nope") end)
  end)

  it("sends any event and shows the tree", function()
    screen:send("plus", "touchUpInside")
    assert.are.equal(2, screen.state.count)
    assert.is_not_nil(screen:tree():find('label#count text="2"', 1, true))
  end)

  it("cannot be driven once closed", function()
    screen:close()
    assert.has_error(function() screen:tap("plus") end, "the screen was closed")
  end)
end)
