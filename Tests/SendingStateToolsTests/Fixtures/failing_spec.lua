-- A spec with one passing, one failing, one pending test and a hook. Line numbers matter.
local ss = require "sendingstate"

describe("failing", function()
  local count = 0
  before_each(function() count = count + 1 end)

  it("passes", function()
    assert.are.equal(1, count)
  end)

  it("fails with expected and actual", function()
    local screen = ss.open("examples/counter/counter.lua")
    screen:tap("plus")
    assert.are.same({ count = 3 }, { count = screen.state.count })   -- line 15
  end)

  pending("later")

  it("checks errors by message", function()
    local screen = ss.open("examples/counter/counter.lua")
    assert.has_error(function() screen.view.count.text = "x" end,
      "screen.view is read-only: drive the screen with tap/set/type…")
    assert.has_error(function() error("boom") end, "boom")
  end)
end)
