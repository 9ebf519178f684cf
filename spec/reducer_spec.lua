-- A screen written as a pure reducer, driven on a virtual clock.
local ss = require "sendingstate"

describe("a reducer screen", function()
  it("returns the next state and its effects; the timer fires when the clock passes it", function()
    local screen = ss.open("screens/reducer.lua", { clock = 0 })
    screen:tap("plus")
    screen:tap("plus")
    assert.are.same({ count = 2, ticks = 0 }, screen.state)
    assert.are.equal(2, screen.pending)
    screen:advance(1)
    assert.are.same({ count = 2, ticks = 2 }, screen.state)
    assert.are.equal("2", screen.view.count.text)
  end)
end)
