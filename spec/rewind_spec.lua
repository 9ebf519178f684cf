-- screen:pending_effects(): what a screen waits for on its virtual clock — a timer, a debounce, a
-- throttle window — with ids, windows and due times, so a spec can step to each in turn.
local ss = require "sendingstate"

describe("pending effects", function()
  it("lists a timer, a debounced effect and a throttle window, soonest first", function()
    local screen = ss.open("spec/screens/rewind.lua", { clock = 0 })
    screen:skip_received()  -- (every action from an effect is received from here on)
    screen:tap("tick")
    screen:tap("search")
    screen:tap("burst")
    screen:advance(0)
    screen:receive("burst_done", function(s) s.bursts = 1 end)
    screen:tap("burst")
    local pending = screen:pending_effects()
    assert.are.equal(3, #pending)
    assert.are.same({ "query", "timer", "after", 0.5, 0.5 },
      { pending[1].id, pending[1].kind, pending[1].effect, pending[1].debounce, pending[1].due })
    assert.are.same({ "timer", "after", 1 }, { pending[2].kind, pending[2].effect, pending[2].due })
    assert.is_nil(pending[2].id)
    assert.is_nil(pending[2].debounce)
    assert.are.same({ "bursts", "throttle", 2, 2, "after" },
      { pending[3].id, pending[3].kind, pending[3].due, pending[3].window, pending[3].waiting })
    -- Step to each in turn: what falls due is the next action received.
    for _, expected in ipairs({ "searched", "ticked", "burst_done" }) do
      screen:advance(screen:pending_effects()[1].remaining)
      screen:receive(expected, function(s)
        if expected == "searched" then s.searches = 1 elseif expected == "ticked" then s.ticks = 1 else s.bursts = 2 end
      end)
    end
    -- The window the last burst opened stays open, with nothing waiting.
    pending = screen:pending_effects()
    assert.are.same({ "bursts", "throttle" }, { pending[1].id, pending[1].kind })
    assert.is_nil(pending[1].waiting)
    screen:finish()
  end)

  it("is empty when nothing waits", function()
    local screen = ss.open("spec/screens/rewind.lua", { clock = 0 })
    assert.are.same({}, screen:pending_effects())
    screen:finish()
  end)
end)
