-- Effects with ids: cancel, replace (latest wins), debounce and throttle, on a virtual clock.
local ss = require "sendingstate"

local function open() return ss.open("screens/ids.lua", { clock = 0 }) end
local function ping(screen, name, mode, extra)
  local action = { type = "ping", name = name, mode = mode }
  for k, v in pairs(extra or {}) do action[k] = v end
  local ok, problem = pcall(function() screen:expect(action) end)
  if not ok then error(problem, 2) end
end

describe("effects with ids", function()
  it("store:cancel(id) stops them: their actions never arrive", function()
    local screen = open()
    ping(screen, "a")
    ping(screen, "b")
    screen:advance(0.5)
    screen:expect("stop")
    screen:advance(2)
    assert.are.same({}, screen.state.log)
    assert.are.equal(0, screen.pending)
  end)

  it("replace: a newer effect with the id cancels the running one", function()
    local screen = open()
    ping(screen, "a", "replace")
    screen:advance(0.5)
    ping(screen, "b", "replace")
    screen:advance(2)
    screen:receive({ type = "pong", name = "b" }, function(s) s.log = { "b@1.5" } end)
  end)

  it("without replace, effects with the same id all run", function()
    local screen = open()
    ping(screen, "a")
    ping(screen, "b")
    screen:advance(1)
    screen:skip_received()
    assert.are.equal(2, #screen.state.log)
  end)

  it("debounce: only the last of a burst runs, its delay counted from the last", function()
    local screen = open()
    ping(screen, "a", "debounce")
    screen:advance(0.4)
    ping(screen, "b", "debounce")
    screen:advance(0.4)
    ping(screen, "c", "debounce")
    screen:advance(1.4)
    assert.are.same({}, screen.state.log)
    screen:advance(0.1)
    screen:receive({ type = "pong", name = "c" }, function(s) s.log = { "c@2.3" } end)
  end)

  it("throttle: the first at once, the latest of the window at its end, the rest dropped", function()
    local screen = open()
    ping(screen, "a", "throttle")
    screen:advance(0)
    screen:receive({ type = "pong", name = "a" }, function(s) s.log = { "a@0.0" } end)
    screen:advance(0.5)
    ping(screen, "b", "throttle")
    ping(screen, "c", "throttle")
    screen:advance(1)
    assert.are.same({ "a@0.0" }, screen.state.log)
    screen:advance(0.5)
    screen:receive({ type = "pong", name = "c" }, function(s) s.log[2] = "c@2.0" end)
    screen:advance(5)
    ping(screen, "d", "throttle")
    screen:advance(0)
    screen:receive({ type = "pong", name = "d" }, function(s) s.log[3] = "d@7.0" end)
  end)

  it("throttle with latest = false keeps the first of the window", function()
    local screen = open()
    ping(screen, "a", "throttle", { latest = false })
    ping(screen, "b", "throttle", { latest = false })
    ping(screen, "c", "throttle", { latest = false })
    screen:advance(3)
    screen:skip_received()
    assert.are.same({ "a@0.0", "b@2.0" }, screen.state.log)
  end)

  it("a metatable cannot answer one option to the check and another to the host", function()
    local screen = open()
    screen:expect("sly")
    screen:advance(1)
    screen:receive({ type = "pong", name = "sly" }, function(s) s.log = { "sly@1.0" } end)
  end)

  it("cancels are cheap and bounded: repeats count once, 1000 ids per event, no effect room taken", function()
    local screen = open()
    screen:expect({ type = "cancels", count = 200000 })  -- one id, 200,000 times: one cancel
    screen:expect({ type = "cancels", count = 1000, unique = true, thenStart = true })
    local ok, problem = pcall(function() screen:expect({ type = "cancels", count = 1001, unique = true }) end)
    assert.is_false(ok)
    assert.matches("screens/ids%.lua:%d+: in handle %(action 'cancels'%): "
      .. "more than 1000 different ids cancelled in one event", problem)
    screen:advance(1)
    screen:receive({ type = "pong", name = "after cancels" }, function(s) s.log = { "after cancels@1.0" } end)
  end)

  it("bad options fail at the script's line, and the event changes nothing", function()
    local screen = open()
    local cases = {
      { { id = "" }, "an effect id is a non%-empty string" },
      { { id = "x", debounce = -1 }, "debounce must be a finite number of seconds" },
      { { debounce = 1 }, "debounce needs an id" },
      { { id = "x", debounce = 1, throttle = 1 }, "debounce and throttle do not go together" },
      { { id = "x", replace = "yes" }, "replace must be true or false" },
      { { id = "x", replace = true, throttle = 1 }, "replace and throttle do not go together" },
      { { id = "x", speed = 2 }, "unknown option 'speed'" },
      { "fast", "options must be a table" },
    }
    for _, case in ipairs(cases) do
      local ok, problem = pcall(function()
        screen:expect({ type = "ping", name = "x", mode = "bad", options = case[1] })
      end)
      assert.is_false(ok)
      assert.matches("screens/ids%.lua:%d+: .*" .. case[2], problem)
    end
    assert.are.equal(0, screen.pending)
  end)
end)
