-- Named states in Lua screens (`states` + `state_name`): set then update on entering a state,
-- update alone when it stays, transitions on the screen's clock with changes waiting for their
-- end, and a failing hook that changes nothing.
local ss = require "sendingstate"

local function open() return ss.open("screens/lamp.lua", { clock = 0 }) end

-- Performs an action that sets fields of the state, asserting exactly that change.
local function act(screen, action)
  screen:expect(action, function(s)
    for key, value in pairs(action) do
      if key ~= "type" then s[key] = value end
    end
  end)
end

describe("named states", function()
  it("XS-2: the first state is entered when the screen opens; another state runs its set, then its update", function()
    local screen = open()
    assert.are.same({ current = "off" }, screen.named)
    assert.are.equal("set off", screen.view.trace.text)
    act(screen, { type = "switch", mode = "on", color = 3 })
    assert.are.equal("set off, set on, update on 3", screen.view.trace.text)
    assert.are.same({ current = "on" }, screen.named)
  end)

  it("XS-3: a commit that stays in the state runs only its update; a state without update changes nothing", function()
    local screen = open()
    act(screen, { type = "switch", mode = "on", color = 1 })
    act(screen, { type = "paint", color = 2 })
    assert.are.equal("2", screen.view.color.text)
    assert.are.equal("set off, set on, update on 1, update on 2", screen.view.trace.text)
    act(screen, { type = "switch", mode = "off" })
    act(screen, { type = "paint", color = 5 })  -- off has no update
    assert.are.equal("set off, set on, update on 1, update on 2, set off", screen.view.trace.text)
  end)

  it("XS-4: a state's own transition, else the screen's default (state_transition); 0 is at once", function()
    local screen = ss.open("screens/dimmer.lua", { clock = 0 })
    act(screen, { type = "set", level = "dim" })
    assert.are.same({ current = "dark", from = "dark", to = "dim" }, screen.named)
    screen:advance(0.3)
    assert.are.same({ current = "dim" }, screen.named)
    act(screen, { type = "set", level = "bright" })
    screen:advance(0.9)
    assert.are.equal("bright", screen.named.to)
    screen:advance(0.1)
    assert.are.same({ current = "bright" }, screen.named)
    act(screen, { type = "set", level = "dark" })
    assert.are.same({ current = "dark" }, screen.named)
    assert.are.equal("dark", screen.view.l.text)
  end)

  it("XS-5: during a transition the phase shows both ends, and changes wait for its end", function()
    local screen = open()
    act(screen, { type = "switch", mode = "warming" })
    assert.are.same({ current = "off", from = "off", to = "warming" }, screen.named)
    assert.are.equal("warming", screen.view.glow.text)  -- set ran at the start
    act(screen, { type = "switch", mode = "on", color = 4 })
    assert.are.equal("set off, set warming", screen.view.trace.text)  -- on waits
    screen:advance(0.4)
    assert.are.equal("warming", screen.named.to)
    screen:advance(0.1)
    assert.are.equal("set off, set warming, done warming, set on, update on 4", screen.view.trace.text)
    assert.are.same({ current = "on" }, screen.named)
  end)

  it("XS-6: the transition's end runs done once and only then is the state current", function()
    local screen = open()
    act(screen, { type = "switch", mode = "warming" })
    assert.are.equal("off", screen.named.current)
    screen:advance(1)
    screen:advance(1)
    assert.are.same({ current = "warming" }, screen.named)
    assert.are.equal("warm", screen.view.glow.text)
    assert.are.equal("set off, set warming, done warming", screen.view.trace.text)
    assert.are.equal(0, screen.pending)  -- a transition is not an effect
  end)

  it("a failing hook leaves state, views and named state as they were", function()
    local screen = open()
    act(screen, { type = "switch", mode = "on", color = 1 })
    local ok, problem = pcall(function() screen:expect({ type = "paint", color = 9, fail = "update" }) end)
    assert.is_false(ok)
    assert.matches("lamp%.lua:%d+: in states%.on%.update: the bulb broke", problem)
    assert.are.equal(1, screen.state.color)
    assert.are.equal("1", screen.view.color.text)
    assert.are.equal("set off, set on, update on 1", screen.view.trace.text)
    assert.are.same({ current = "on" }, screen.named)
  end)

  it("XS-7: a transition whose end fails is interrupted: no state is current, "
    .. "and the next commit that changes the state enters the wanted one afresh", function()
    local screen = open()
    act(screen, { type = "switch", mode = "warming", fail = "done" })
    local ok, problem = pcall(function() screen:advance(0.5) end)
    assert.is_false(ok)
    assert.matches("lamp%.lua:%d+: in states%.warming%.done: the filament broke", problem)
    assert.are.same({}, screen.named)  -- the views show warming's set: neither off nor warming
    assert.are.equal("warming", screen.view.glow.text)  -- done's writes were undone
    act(screen, { type = "mend", fail = "" })
    assert.are.same({ to = "warming" }, screen.named)
    screen:advance(0.5)
    assert.are.same({ current = "warming" }, screen.named)
    assert.are.equal("set off, set warming, set warming, done warming", screen.view.trace.text)
  end)

  it("XS-7: after an interrupted transition, going back to the old state repaints it (its set runs)", function()
    local screen = open()
    act(screen, { type = "switch", mode = "warming", fail = "done" })
    pcall(function() screen:advance(0.5) end)
    act(screen, { type = "switch", mode = "off", fail = "" })
    assert.are.same({ current = "off" }, screen.named)
    assert.are.equal("set off, set warming, set off", screen.view.trace.text)
  end)

  it("XS-7: a transition's end that fails after done ran (planning rows) is still interrupted", function()
    local screen = ss.open("screens/done_rows.lua", { clock = 0 })
    act(screen, { type = "go", mode = "showing" })
    local ok, problem = pcall(function() screen:advance(0.5) end)
    assert.is_false(ok)
    assert.matches("this row cannot be shown", problem)
    assert.are.same({}, screen.named)  -- not left in the transition for ever
    act(screen, { type = "go", mode = "idle" })
    assert.are.same({ current = "idle" }, screen.named)
  end)

  it("state_name must name one of the states", function()
    local screen = open()
    local ok, problem = pcall(function() screen:expect({ type = "switch", mode = "wrong" }) end)
    assert.is_false(ok)
    assert.matches('state_name returned string "nope", which is not one of the states %(off, on, warming%)',
      problem)
    assert.are.equal("off", screen.state.mode)
  end)
end)

describe("named states in components", function()
  it("each component instance has its own named state and transition, chosen from its props", function()
    local screen = ss.open("screens/badges.lua", { clock = 0 })
    assert.are.equal("calm", screen.view["low.text"].text)
    screen:tap("up")
    screen:tap("up")
    assert.are.equal("alert over 1", screen.view["low.text"].text)
    assert.are.equal("calm", screen.view["high.text"].text)
    screen:advance(0.1)
    screen:tap("up")
    assert.are.equal("alert over 2", screen.view["high.text"].text)
    screen:advance(0.1)
    assert.are.equal("alert over 1!", screen.view["low.text"].text)
    assert.are.equal("alert over 2", screen.view["high.text"].text)
    screen:advance(0.1)
    assert.are.equal("alert over 2!", screen.view["high.text"].text)
  end)

  it("components in list rows enter their named state when the rows are built", function()
    local screen = ss.open("screens/row_dots.lua", { clock = 0 })
    local function marks()
      local found = {}
      for mark in screen:tree():gmatch('label#mark text="(%a+)"') do found[#found + 1] = mark end
      return found
    end
    assert.are.same({ "dark", "dark" }, marks())
    screen:expect("light", function(s) s.lit = true end)
    assert.are.same({ "lit", "lit" }, marks())
  end)

  it("inside a unit, a component's hooks and the end of its transition get the unit's data", function()
    local screen = ss.open("screens/unit_fades.lua", { clock = 0, data = "screens/unit_fades.json" })
    assert.matches('label#text text="soft"', screen:tree())
    screen:expect("tap", function(s) s.taps = 1 end)  -- a commit while the transition runs
    screen:advance(0.2)
    assert.matches('label#text text="soft soft"', screen:tree())
  end)
end)
