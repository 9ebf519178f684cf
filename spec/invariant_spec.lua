-- ss.invariant: a check declared at a spec's top level holds after every step of the screens
-- this file opens (their start, driven events, expect, settle, advance), or the step fails at
-- the spec's line, naming the invariant and where it was declared.
local ss = require "sendingstate"

-- (Unnamed: it is named by where it is declared. A view that reads wrong breaks every test.)
ss.invariant(function(state, view)
  return view.ticks.text == tostring(state.ticks)
end)
ss.invariant("fewer than two ticks", function(state) return state.ticks < 2 end)

-- How many times the checks ran, and an error one raises when asked to.
local checks, raise = 0, nil
ss.invariant("counted", function()
  checks = checks + 1
  if raise then error(raise) end
  return true
end)

-- The message of the error `fn` raises, and the line of this file it blames.
local function failure(fn)
  local ok, message = pcall(fn)
  assert.is_false(ok, "the step should have failed")
  return tostring(message), tonumber(tostring(message):match("invariant_spec%.lua:(%d+): "))
end

describe("ss.invariant", function()
  it("holds while the screen is right, checked after every step", function()
    checks = 0
    local screen = ss.open("screens/ticker.lua", { clock = 0 })
    assert.are.equal(1, checks)   -- the start
    screen:tap("start")
    screen:send("loop", "touchUpInside")
    assert.are.equal(3, checks)   -- each driven event
    screen:advance(0.01)
    assert.are.equal(4, checks)
    assert.are.equal(1, screen.state.ticks)
    screen:skip_in_flight()
  end)

  it("fails a step whose invariant raises an error, with the error", function()
    local screen = ss.open("screens/ticker.lua")
    raise = "boom"
    local message = failure(function() screen:tap("start") end)
    raise = nil
    assert.matches("the invariant counted %([^)]*invariant_spec%.lua:%d+%) failed after "
      .. "screen:tap%(\"start\"%): .*boom", message)
  end)

  it("fails the step that breaks it, at the spec's line, with the state", function()
    local screen = ss.open("screens/ticker.lua", { clock = 0 })
    screen:tap("start")
    screen:advance(1)
    screen:tap("start")
    local line = debug.getinfo(1, "l").currentline + 1
    local message, blamed = failure(function() screen:advance(1) end)
    assert.are.equal(line, blamed)
    -- (Declared at line 10 of this file, however the runner was given its path.)
    assert.matches("the invariant fewer than two ticks %([^)]*invariant_spec%.lua:10%) does not hold "
      .. "after screen:advance%(1%): state = { ticks = 2 }", message)
  end)

  it("checks settle and expect too", function()
    local screen = ss.open("screens/ticker.lua")
    screen:expect("tick", function(s) s.ticks = 1 end)
    local message = failure(function() screen:expect("tick", function(s) s.ticks = 2 end) end)
    assert.matches("does not hold after screen:expect(\"tick\")", message, 1, true)
    local settled = ss.open("screens/ticker.lua", { state = { ticks = 1 } })
    settled:tap("start")
    assert.matches("does not hold after screen:settle(", (failure(function() settled:settle() end)), 1, true)
  end)

  it("checks the start state", function()
    local message = failure(function() ss.open("screens/ticker.lua", { state = { ticks = 5 } }) end)
    assert.matches("does not hold after ss.open(\"screens/ticker.lua\"): state = { ticks = 5 }", message, 1, true)
  end)

  it("refuses a declaration without a function, saying what to write", function()
    local ok, message = pcall(ss.invariant, "no function")
    assert.is_false(ok)
    assert.matches("ss.invariant([name,] fn): fn must be a function(state, view)", message, 1, true)
  end)

  it("refuses a declaration inside a test (explore reads the top level only) and a name with a line break", function()
    local ok, message = pcall(ss.invariant, "late", function() return true end)
    assert.is_false(ok)
    assert.matches("must be called at the spec file's top level", message, 1, true)
    ok, message = pcall(ss.invariant, "two\nlines", function() return true end)
    assert.is_false(ok)
    assert.matches("without control characters", message, 1, true)
  end)
end)
