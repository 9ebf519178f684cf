-- The test store: screen:expect asserts an action's exact change, screen:receive the actions
-- effects send back, in order; what is left over fails the test (TCA's exhaustive rules).
local ss = require "sendingstate"

describe("the test store", function()
  it("asserts a performed action's change, then the action its timer sends", function()
    local screen = ss.open("screens/timed.lua", { clock = 0 })
    screen:expect("show", function(s)
      s.shown = true
      s.at = 0.0  -- the clock's time is a float: 0 became 0.0, and that is a change
    end)
    screen:advance(3)
    screen:receive({ type = "hide" }, function(s)
      s.shown = false
      s.log = { "hide@3.0" }
    end)
  end)

  it("receives a chain of timers one by one, with the state after each", function()
    local screen = ss.open("screens/timed.lua", { clock = 0 })
    screen:expect("step", function(s) s.steps = 1; s.log = { "step@0.0" } end)
    screen:advance(5)
    screen:receive({ type = "step" }, function(s) s.steps = 2; s.log[2] = "step@1.0" end)
    screen:receive({ type = "step" }, function(s) s.steps = 3; s.log[3] = "step@2.0" end)
  end)

  it("fails an expectation that does not match, naming the paths that differ", function()
    local screen = ss.open("screens/timed.lua", { clock = 0 })
    local ok, problem = pcall(function()
      screen:expect("step", function(s) s.steps = 2 end)
    end)
    assert.is_false(ok)
    assert.matches('screen:expect%("step"%): the state differs from the expected change', problem)
    assert.matches('+ state%.log%[1%] = "step@0%.0"', problem)
    assert.matches("− state%.steps = 2\n  %+ state%.steps = 1", problem)
    screen:skip_in_flight()
  end)

  it("fails an unasserted change, an expected change that did not happen, and a wrong received action", function()
    local screen = ss.open("screens/timed.lua", { clock = 0 })
    local ok, problem = pcall(function() screen:expect("show") end)
    assert.is_false(ok)
    assert.matches("the state was not expected to change, but it did", problem)
    ok, problem = pcall(function() screen:expect("nothing", function(s) s.steps = 0 end) end)
    assert.is_false(ok)
    assert.matches("expected the state to change, but no change occurred", problem)
    screen:advance(3)
    ok, problem = pcall(function() screen:receive("show") end)
    assert.is_false(ok)
    assert.matches('received another action %(− expected, %+ received%):\n'
      .. '  − { type = "show" }\n  %+ { type = "hide" }', problem)
  end)

  it("fails an expect while actions from effects wait to be received, and a receive with nothing to receive", function()
    local screen = ss.open("screens/timed.lua", { clock = 0 })
    screen:expect("show", function(s) s.shown = true; s.at = 0.0 end)
    local ok, problem = pcall(function() screen:receive({ type = "hide" }) end)
    assert.is_false(ok)
    assert.matches("no action came from effects", problem)
    screen:advance(3)
    ok, problem = pcall(function() screen:expect("step", function(s) s.steps = 1 end) end)
    assert.is_false(ok)
    assert.matches('1 action%(s%) from effects were not received.*{ type = "hide" }', problem)
  end)

  it("skip_received accepts what arrived; finish() passes when nothing is owed", function()
    local screen = ss.open("screens/timed.lua", { clock = 0 })
    screen:expect("step", function(s) s.steps = 1; s.log = { "step@0.0" } end)
    screen:advance(10)
    screen:skip_received()
    assert.are.equal(3, screen.state.steps)
    screen:finish()
  end)
end)
