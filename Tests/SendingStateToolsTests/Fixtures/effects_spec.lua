-- Specs that wait for effects with screen:settle().
local ss = require "sendingstate"

describe("effects", function()
  it("sees a timer's action after settling", function()
    local screen = ss.open("Tests/SendingStateToolsTests/Fixtures/timer_screen.lua")
    screen:tap("start")
    assert.are.equal(0, screen.state.ticks)
    screen:settle(30)  -- returns as soon as the timer has fired; 30 s only bounds a starved machine
    assert.are.equal(1, screen.state.ticks)
    assert.are.equal("1", screen.view.ticks.text)
  end)

  it("can settle inside pcall-protected code and still fail properly", function()
    local screen = ss.open("Tests/SendingStateToolsTests/Fixtures/timer_screen.lua")
    local ok = pcall(function()
      screen:tap("start")
      screen:settle(30)  -- (as above: returns once the timer has fired)
    end)
    assert.is_true(ok)
    assert.are.same({ { type = "start" }, { type = "tick" } }, screen.actions)
  end)
end)
