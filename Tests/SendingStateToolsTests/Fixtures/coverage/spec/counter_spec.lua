local ss = require "sendingstate"
local label = require "label"

describe("counter", function()
  it("counts up", function()
    local screen = ss.open("counter.lua")
    screen:tap("plus")
    assert.are.equal(1, screen.state.count)
    assert.are.equal("one", label.of(screen.state.count))
    assert.are.equal("#1", screen.view["badge.text"].text)
  end)
end)
