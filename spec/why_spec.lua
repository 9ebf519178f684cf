-- screen:why(): a step that did nothing says why; one that did something has no reason.
local ss = require "sendingstate"

describe("screen:why()", function()
  ---@type SSScreen
  local screen
  before_each(function()
    screen = ss.open("../examples/counter/counter.lua", { state = { title = "Tea", count = 0 } })
  end)

  it("names a disabled button", function()
    screen:tap("minus")
    assert.are.equal("'minus' is disabled (enabled = false), so it takes no interaction", screen:why())
  end)

  it("is nil after a step whose action reached handle", function()
    screen:tap("minus")
    screen:tap("plus")
    assert.is_nil(screen:why())
    assert.are.equal(1, screen.state.count)
  end)

  it("says what a gesture's recognizer wanted", function()
    screen:tap("count")
    assert.matches("wants taps=2, touches=1", screen:why(), 1, true)
    screen:gesture("count", "tap", { taps = 2 })
    assert.is_nil(screen:why())
  end)

  it("says when nothing is registered on a view", function()
    screen:tap("title")
    assert.are.equal("nothing is registered on 'title': no on(view.title, …) in the screen's events", screen:why())
  end)
end)
