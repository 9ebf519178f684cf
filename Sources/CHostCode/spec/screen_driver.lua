-- `ss.open` for specs (see SpecScreenDriver.swift): a screen driven from a busted spec.
-- luacheck: std lua54, max line length 160
return function(prims, settings, busted)
  local path = require "pl.path"
  local lfs = require "lfs"
  local say = require "say"
  local luassert = require "luassert"
  local concat, format = table.concat, string.format

  local open = {}          -- handle -> owner element (a test, block or file), or true
  local order = {}         -- handles in opening order
  local scopes = {}        -- the test or block lifecycles running now, innermost last
  local handles = setmetatable({}, { __mode = "k" })   -- driver -> handle
  local currentFile

  busted.subscribe({ "file", "start" }, function(file) currentFile = file.name return nil, true end)
  -- Invariants: spec file -> { { name, fn } }, declared by ss.invariant; the file that opened a
  -- screen, by handle (its invariants check that screen's steps).
  local invariants, fileOf = {}, {}
  busted.subscribe({ "file", "end" }, function(file)
    invariants[file.name] = nil
    currentFile = nil
    return nil, true
  end)

  local function exists(candidate) return lfs.attributes(candidate, "mode") ~= nil end
  local roots = {}
  local function projectRoot(folder)
    local absolute = path.abspath(folder)
    if roots[absolute] then return roots[absolute] end
    local dir = absolute
    while true do
      for _, marker in ipairs({ ".busted", ".git", ".luarc.json" }) do
        if exists(path.join(dir, marker)) then roots[absolute] = dir return dir end
      end
      local parent = path.dirname(dir)
      if parent == dir or parent == "" then break end
      dir = parent
    end
    roots[absolute] = lfs.currentdir()
    return roots[absolute]
  end

  local function specFolder()
    local folder = currentFile and path.dirname(currentFile) or ""
    return folder == "" and "." or folder
  end

  -- The spec's folder, then the project root (the nearest folder above it with .busted,
  -- .git or .luarc.json), so a spec passes from any working folder.
  local function resolve(given, what, level)
    if type(given) ~= "string" or given == "" then
      error(format("ss.open: %s must be a path (a string), got %s", what, type(given)), level + 1)
    end
    if path.isabs(given) then return given end
    local tried = {}
    local folder = specFolder()
    for _, base in ipairs({ folder, projectRoot(folder) }) do
      local candidate = path.normpath(path.join(base, given))
      if exists(candidate) then return candidate end
      if tried[#tried] ~= candidate then tried[#tried + 1] = candidate end
    end
    error(format("ss.open: no %s '%s' (looked for %s)", what, given, concat(tried, " and ")), level + 1)
  end

  -- handle -> why the last driven step did nothing (nil when it did what it could)
  local whys = {}

  local function close(handle)
    if open[handle] ~= nil then
      open[handle] = nil
      whys[handle] = nil
      fileOf[handle] = nil
      prims.close(handle)
    end
  end

  -- {======================================================================
  -- The test store: screen:expect / screen:receive / screen:finish (TCA's exhaustive rules).
  -- A screen is tracked from its first expect or receive: from then on every committed
  -- step is recorded; steps that came from effects (timers, fetches: delivered by settle and
  -- advance) are "received" and must be received, in order, before the next expect, tap or
  -- the end of the test.
  -- =======================================================================
  local tracked = {}   -- handle -> { asserted = state, seen = steps consumed, queue = { {action, state?} } }

  local function isIdentifier(key) return type(key) == "string" and key:match("^[%a_][%w_]*$") ~= nil end

  -- A value as Lua source, keys sorted, bounded (for messages).
  local function literal(value, depth)
    depth = depth or 0
    if type(value) == "string" then return format("%q", value) end
    if type(value) ~= "table" then return tostring(value) end
    if depth > 6 then return "{…}" end
    local parts, keys = {}, {}
    for i = 1, #value do parts[#parts + 1] = literal(value[i], depth + 1) end
    for key in pairs(value) do
      if not (math.type(key) == "integer" and key >= 1 and key <= #value) then keys[#keys + 1] = key end
    end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    for _, key in ipairs(keys) do
      local name = isIdentifier(key) and key or "[" .. literal(key, depth + 1) .. "]"
      parts[#parts + 1] = name .. " = " .. literal(value[key], depth + 1)
    end
    return "{ " .. concat(parts, ", ") .. (#parts > 0 and " }" or "}")
  end

  local function same(a, b)
    -- Numbers keep their subtype, as the state does (2 and 2.0 show differently).
    if type(a) == "number" and type(b) == "number" then return a == b and math.type(a) == math.type(b) end
    if type(a) ~= "table" or type(b) ~= "table" then return a == b end
    for key, value in pairs(a) do
      if not same(value, b[key]) then return false end
    end
    for key in pairs(b) do
      if a[key] == nil then return false end
    end
    return true
  end

  local function copy(value)
    if type(value) ~= "table" then return value end
    local result = {}
    for key, item in pairs(value) do result[key] = copy(item) end
    return result
  end

  -- {======================================================================
  -- screen.state, read-only: a spec changes a screen's state only through the screen (its
  -- events, expect, send) or opens it with a start state. A write anywhere inside the state is an
  -- error at the spec's line; reads, #, pairs, ipairs, next (the host's `next` is `stateNext`),
  -- luassert's comparisons and its failure messages see the state as it is. Tables that go back
  -- to the host (actions, values, start states, fake answers) are unwrapped by `plain`.
  -- =======================================================================
  local rawnext = next
  local targetOf = setmetatable({}, { __mode = "k" })   -- view -> the state table it shows
  local pathOf = setmetatable({}, { __mode = "k" })     -- view -> "screen.state.items[2]"
  local viewOf = setmetatable({}, { __mode = "k" })     -- state table -> its view (ephemeron)
  local readOnlyMeta = { __metatable = "screen.state (read-only)", __name = "screen.state" }

  local function readOnly(value, at)
    if type(value) ~= "table" then return value end
    local view = viewOf[value]
    if view == nil then
      view = setmetatable({}, readOnlyMeta)
      targetOf[view], pathOf[view], viewOf[value] = value, at, view
    end
    return view
  end
  local function childPath(view, key)
    local at = pathOf[view]
    if math.type(key) == "integer" then return format("%s[%d]", at, key) end
    if isIdentifier(key) then return at .. "." .. key end
    return format("%s[%s]", at, literal(key))
  end
  local function stateNext(t, key)
    local target = targetOf[t]
    if target == nil then return rawnext(t, key) end
    local nextKey, value = rawnext(target, key)
    if nextKey == nil then return nil end
    return nextKey, readOnly(value, childPath(t, nextKey))
  end
  readOnlyMeta.__index = function(view, key)
    local value = targetOf[view][key]
    if type(value) ~= "table" then return value end
    return readOnly(value, childPath(view, key))
  end
  readOnlyMeta.__newindex = function(view, key)
    error(format("%s is read-only (screen.state is what the screen shows): change the state through the screen, "
      .. "with screen:tap/set/type/send or screen:expect(action, function(state) … end), or start it with "
      .. "ss.open(path, { state = { … } })", childPath(view, key)), 2)
  end
  readOnlyMeta.__len = function(view) return #targetOf[view] end
  readOnlyMeta.__pairs = function(view) return stateNext, view, nil end

  -- `value` with every read-only view in it replaced by the table it shows (copied only where
  -- it holds one, so the caller's own tables are never changed). `done` maps each table met to
  -- its result, so a table reached twice (or through a cycle) gets the same one.
  local function plain(value, done)
    if type(value) ~= "table" then return value end
    local target = targetOf[value]
    if target ~= nil then return target end
    done = done or {}
    if done[value] ~= nil then return done[value] end
    done[value] = value  -- (until a view is found inside)
    local result = value
    for key, item in rawnext, value do
      local unwrapped = plain(item, done)
      if unwrapped ~= item then
        if result == value then
          result = {}
          for k, v in rawnext, value do result[k] = v end
          done[value] = result
        end
        result[key] = unwrapped
      end
    end
    return result
  end

  -- The paths where two states differ, as lines "− path = expected" / "+ path = actual".
  local function differences(expected, actual, at, lines)
    if same(expected, actual) then return lines end
    if type(expected) == "table" and type(actual) == "table" then
      local keys, seen = {}, {}
      for key in pairs(expected) do keys[#keys + 1] = key seen[key] = true end
      for key in pairs(actual) do if not seen[key] then keys[#keys + 1] = key end end
      table.sort(keys, function(a, b)
        if type(a) == type(b) and type(a) ~= "table" then return a < b end
        return type(a) < type(b)
      end)
      for _, key in ipairs(keys) do
        local sub = math.type(key) == "integer" and format("%s[%d]", at, key)
          or isIdentifier(key) and at .. "." .. key or format("%s[%s]", at, literal(key))
        differences(expected[key], actual[key], sub, lines)
      end
      return lines
    end
    if expected ~= nil then lines[#lines + 1] = "  \u{2212} " .. at .. " = " .. literal(expected) end
    if actual ~= nil then lines[#lines + 1] = "  + " .. at .. " = " .. literal(actual) end
    return lines
  end

  local function track(handle)
    local t = tracked[handle]
    if not t then
      prims.track(handle)
      t = { asserted = prims.state(handle), seen = 0, queue = {} }
      tracked[handle] = t
    end
    return t
  end

  -- Moves the steps committed since the last look into the queue of received actions.
  local function pull(t, handle)
    local steps = prims.steps(handle, t.seen)
    for _, step in ipairs(steps) do
      t.seen = t.seen + 1
      for i, action in ipairs(step.actions) do
        -- The state is known after a step's last action (a step's actions commit together).
        t.queue[#t.queue + 1] = { action = action, state = i == #step.actions and step.state or nil }
      end
    end
  end

  local function owed(t, what)
    local names = {}
    for i, item in ipairs(t.queue) do names[i] = "  " .. literal(item.action) end
    return format("%s: %d action(s) from effects were not received (screen:receive them, or screen:skip_received()):\n%s",
      what, #t.queue, concat(names, "\n"))
  end

  -- Checks the state after `what` against `expected`'s mutation by fn, like TCA's send.
  local function check(before, actual, fn, what, level)
    local expected = copy(before)
    if fn ~= nil then
      if type(fn) ~= "function" then error(what .. ": the second argument must be a function(state) that makes the expected change", level + 1) end
      local ok, problem = pcall(fn, expected)
      if not ok then error(what .. ": the assertion function failed: " .. tostring(problem), level + 1) end
      if same(expected, before) and same(actual, before) then
        error(what .. ": expected the state to change, but no change occurred (leave the function out when nothing changes)", level + 1)
      end
    end
    if not same(expected, actual) then
      local lines = differences(expected, actual, "state", {})
      local head = fn == nil and "the state was not expected to change, but it did"
        or "the state differs from the expected change"
      error(format("%s: %s (\u{2212} expected, + actual):\n%s", what, head, concat(lines, "\n")), level + 1)
    end
  end

  local function finish(handle, what, level)
    local t = tracked[handle]
    if not t then return end
    pull(t, handle)
    if #t.queue > 0 then
      local message = owed(t, what)
      t.queue = {}
      error(message, level + 1)
    end
    local pending = prims.pending(handle)
    if pending > 0 then
      error(format("%s: %d effect(s) still running (advance the virtual clock, settle, or screen:skip_in_flight())", what, pending), level + 1)
    end
  end

  -- }======================================================================

  -- screen.view (of a row when list and index are given): view.<id>.<property>, read-only.
  local function screenView(handle, list, index)
    return setmetatable({}, {
      __index = function(_, id)
        return setmetatable({}, {
          __index = function(_, property)
            local ok, value = prims.property(handle, list, index, id, property)
            if not ok then error(value, 2) end
            return value
          end,
          __newindex = function() error("screen.view is read-only: drive the screen with tap/set/type…", 2) end,
        })
      end,
    })
  end

  -- {======================================================================
  -- Invariants: ss.invariant([name,] fn) declares a check that must hold after every step of
  -- each screen the spec file opens (its start, each driven event, expect, settle, advance):
  -- fn(state, view) returns true while the screen is right. `sendingstate explore --spec FILE`
  -- and `run --spec FILE` check the same declarations.
  -- =======================================================================
  local checking = {}   -- handle -> true while its invariants run (one that drives the screen is not re-checked)
  local function checkInvariants(handle, what, level)
    local declared = invariants[fileOf[handle]]
    if not declared or checking[handle] then return end
    checking[handle] = true
    for _, invariant in ipairs(declared) do
      local ok, holds = pcall(invariant.fn, readOnly(prims.state(handle), "screen.state"), screenView(handle))
      if not ok or not holds then checking[handle] = nil end
      if not ok then
        error(format("the invariant %s failed after %s: %s", invariant.name, what, tostring(holds)), level + 1)
      elseif not holds then
        error(format("the invariant %s does not hold after %s: state = %s", invariant.name, what, literal(prims.state(handle))), level + 1)
      end
    end
    checking[handle] = nil
  end
  -- }======================================================================

  local function driver(handle, list, index)
    local function act(verb, ...)
      local t = tracked[handle]
      if t then
        pull(t, handle)
        if #t.queue > 0 then
          local message = owed(t, "screen:" .. verb)
          t.queue = {}
          error(message, 3)
        end
      end
      local arguments = table.pack(...)
      for i = 1, arguments.n do arguments[i] = plain(arguments[i]) end
      whys[handle] = nil
      local ok, problem = prims.act(handle, list, index, verb, table.unpack(arguments, 1, arguments.n))
      if not ok then error(problem, 3) end
      whys[handle] = problem
      if t then
        -- A driven event is sent, not received; its state is accepted as it is.
        pull(t, handle)
        t.queue = {}
        t.asserted = prims.state(handle)
      end
      checkInvariants(handle, (list ~= nil and format("screen:row(%s, %s):", literal(list), tostring(index)) or "screen:")
        .. verb .. "(" .. literal(arguments[1]) .. ")", 3)
    end
    local function whole(name)
      if list ~= nil then error("screen:" .. name .. " belongs to the screen, not to a row: call it on the screen", 3) end
    end
    local methods = {
      tap = function(_, id) act("tap", id) end,
      send = function(_, id, event) act("send", id, event) end,
      set = function(_, id, value) act("set", id, value) end,
      type = function(_, id, text) act("type", id, text) end,
      gesture = function(_, id, kind, params) act("gesture", id, kind, params) end,
      row = function(_, listId, rowIndex) return driver(handle, listId, rowIndex) end,
      settle = function(_, seconds)
        seconds = seconds or settings.settle
        if type(seconds) ~= "number" or seconds < 0 then
          error("screen:settle(seconds): seconds must be a number ≥ 0", 2)
        end
        if not coroutine.isyieldable() then
          error("screen:settle() cannot wait here (inside require, a metamethod or a C function such as table.sort); call it from the test body", 2)
        end
        local reply = coroutine.yield({ "settle", handle, seconds })
        if reply.errors and #reply.errors > 0 then
          error("an effect's result failed while settling:\n  " .. concat(reply.errors, "\n  "), 2)
        end
        if not reply.settled and reply.described then
          error(format("screen:settle(): %d effect(s) still pending after %g s, %s",
            reply.pending, seconds, reply.described), 2)
        elseif not reply.settled then
          error(format("screen:settle(): %d effect(s) still pending after %g s (timers or fetches); a timer that "
            .. "re-arms itself never settles: wait less, or settle with a longer time", reply.pending, seconds), 2)
        end
        checkInvariants(handle, format("screen:settle(%g)", seconds), 2)
      end,
      advance = function(_, seconds)
        if type(seconds) ~= "number" or seconds < 0 or seconds ~= seconds or seconds == math.huge then
          error("screen:advance(seconds): seconds must be a finite number ≥ 0", 2)
        end
        if not coroutine.isyieldable() then
          error("screen:advance() cannot wait here (inside require, a metamethod or a C function such as table.sort); call it from the test body", 2)
        end
        local reply = coroutine.yield({ "advance", handle, seconds })
        if reply.problem then error(reply.problem, 2) end
        if reply.errors and #reply.errors > 0 then
          error("a timer's actions failed while advancing the clock:\n  " .. concat(reply.errors, "\n  "), 2)
        end
        checkInvariants(handle, format("screen:advance(%g)", seconds), 2)
      end,
      tree = function() return prims.tree(handle) end,
      -- What the screen waits for, soonest first: { number, id, kind ("timer", "running",
      -- "throttle", "transition"), due (on its clock), remaining (seconds from now), window
      -- (a throttle window's length), waiting (the kind of effect a window's end starts) }.
      pending_effects = function() whole("pending_effects"); return prims.pendingList(handle) end,
      -- Why the last tap, set, type, send, gesture or expect did nothing (one reason a line:
      -- the view is disabled or hidden, nothing is registered for the event, a gesture was
      -- filtered, a callback returned no action, middleware dropped it), or nil when every
      -- action it made reached handle.
      why = function() return whys[handle] end,
      close = function() close(handle) end,
      -- Performs `action` as one event and checks the state change: fn(state) must turn a copy
      -- of the state before into the state after (leave it out when nothing may change).
      expect = function(_, action, fn)
        whole("expect")
        local what = "screen:expect(" .. literal(action) .. ")"
        local t = track(handle)
        pull(t, handle)
        if #t.queue > 0 then
          local message = owed(t, what)
          t.queue = {}
          error(message, 2)
        end
        local before = t.asserted
        whys[handle] = nil
        local ok, problem = prims.perform(handle, plain(action))
        if not ok then error(problem, 2) end
        whys[handle] = problem
        pull(t, handle)
        t.queue = {}
        local actual = prims.state(handle)
        t.asserted = actual
        check(before, actual, fn, what, 2)
        checkInvariants(handle, what, 2)
      end,
      -- Takes the next action an effect dispatched; it must equal `action`, and fn(state)
      -- must make the change it made.
      receive = function(_, action, fn)
        whole("receive")
        if type(action) == "string" then action = { type = action } end  -- as the engine dispatches it
        local what = "screen:receive(" .. literal(action) .. ")"
        local t = track(handle)
        pull(t, handle)
        local item = table.remove(t.queue, 1)
        if item == nil then
          error(what .. ": no action came from effects (advance the virtual clock with screen:advance, or screen:settle, first)", 2)
        end
        if not same(item.action, action) then
          t.queue = {}
          error(format("%s: received another action (\u{2212} expected, + received):\n  \u{2212} %s\n  + %s", what, literal(action), literal(item.action)), 2)
        end
        local before = t.pending or t.asserted
        if item.state == nil then
          -- More actions of the same step follow: the state is checked after the last.
          t.pending = copy(before)
          if fn ~= nil then fn(t.pending) end
          return
        end
        t.pending = nil
        t.asserted = item.state
        check(before, item.state, fn, what, 2)
      end,
      -- The whole state must equal `expected`, numbers' subtypes included (2 is not 2.0: a
      -- label shows them differently), as expect and receive compare it.
      assert_state = function(_, expected)
        whole("assert_state")
        if type(expected) ~= "table" then error("screen:assert_state(expected): expected must be a table (the whole state)", 2) end
        local actual = prims.state(handle)
        expected = plain(expected)
        if not same(expected, actual) then
          error("screen:assert_state(): the state differs (\u{2212} expected, + actual):\n"
            .. concat(differences(expected, actual, "state", {}), "\n"), 2)
        end
      end,
      -- Fails if actions from effects were not received or effects still run (the end of a
      -- test checks this by itself for screens used with expect or receive).
      finish = function()
        whole("finish")
        finish(handle, "screen:finish()", 2)
      end,
      skip_received = function()
        whole("skip_received")
        local t = track(handle)
        pull(t, handle)
        t.queue, t.pending = {}, nil
        t.asserted = prims.state(handle)
      end,
      skip_in_flight = function()
        whole("skip_in_flight")
        track(handle)
        prims.cancelEffects(handle)  -- their actions never arrive
      end,
    }
    local screen = setmetatable({}, {
      __index = function(_, key)
        if key == "state" then return readOnly(prims.state(handle), "screen.state") end
        if key == "actions" then return prims.actions(handle) end
        if key == "pending" then return prims.pending(handle) end
        if key == "fetches" then return prims.fetches(handle) end
        if key == "named" then return prims.named(handle) end
        if key == "time" then return prims.time(handle) end
        if key == "view" then return screenView(handle, list, index) end
        return methods[key]
      end,
      __newindex = function() error("the screen driver is read-only", 2) end,
      __tostring = function() return "screen #" .. handle .. (list and (" row " .. list .. "[" .. index .. "]") or "") end,
    })
    handles[screen] = handle
    return screen
  end

  local module = { version = prims.version }
  function module.open(given, options)
    if options ~= nil and type(options) ~= "table" then
      error("ss.open(path, options): options must be a table like { state = {...}, data = \"payload.json\", plugins = { \"plugins/rating\" } }", 2)
    end
    local screenPath = resolve(given, "screen", 2)
    local dataPath = options and options.data ~= nil and resolve(options.data, "data file", 2) or nil
    local plugins
    if options and options.plugins ~= nil then
      if type(options.plugins) ~= "table" then
        error("ss.open(path, options): options.plugins must be a list of plugin folders, like { \"../plugins/rating\" }", 2)
      end
      plugins = {}
      for i, folder in ipairs(options.plugins) do plugins[i] = resolve(folder, "plugin folder", 2) end
    end
    local clock = options and options.clock
    if clock ~= nil and type(clock) ~= "number" then
      error("ss.open(path, options): options.clock must be a number (the virtual clock's start, in seconds since 1970)", 2)
    end
    local fetch = options and options.fetch
    if fetch ~= nil and type(fetch) ~= "table" then
      error("ss.open(path, options): options.fetch must map URLs to answers: { [\"https://…\"] = { status = 200, body = \"…\" } }", 2)
    end
    local tasks = options and options.tasks
    if tasks ~= nil and type(tasks) ~= "table" then
      error("ss.open(path, options): options.tasks must map task names to answers: { geocode = { value = {...} } }", 2)
    end
    local handle, problem = prims.open(screenPath, plain(options and options.state), dataPath, plugins, clock,
      plain(fetch), plain(tasks), options and options.random_seed)
    if not handle then error(problem, 2) end
    open[handle] = scopes[#scopes] or true
    order[#order + 1] = handle
    fileOf[handle] = currentFile
    checkInvariants(handle, "ss.open(" .. literal(given) .. ")", 2)
    return driver(handle)
  end

  --- Declares, at a spec file's top level, a check that must hold after every step of each
  --- screen the file opens: fn(state, view) returns true while the screen is right (false, nil
  --- or an error breaks it, failing the step at the spec's line). `explore --spec FILE` checks
  --- the same declarations.
  function module.invariant(name, fn)
    if fn == nil and type(name) == "function" then name, fn = nil, name end
    if type(fn) ~= "function" or (name ~= nil and type(name) ~= "string") then
      error("ss.invariant([name,] fn): fn must be a function(state, view) that returns true while the screen is right", 2)
    end
    -- (A name is printed on a line of its own: no control character may end or forge it.)
    if name ~= nil and (#name == 0 or #name > 200 or name:find("[%c\127]")) then
      error("ss.invariant(name, fn): a name is 1 to 200 characters without control characters (line breaks, escapes)", 2)
    end
    -- At the top level only, as explore reads them (it runs no describe or it).
    if #scopes ~= 1 or scopes[1].descriptor ~= "file" then
      error("ss.invariant must be called at the spec file's top level (not inside describe, it or a hook), "
        .. "where explore --spec finds it too", 2)
    end
    local info = debug.getinfo(2, "Sl")
    local place = info and (info.short_src .. ":" .. tostring(info.currentline)) or "?"
    local key = currentFile
    if key == nil then
      error("ss.invariant must be called while a spec file runs (at its top level)", 2)
    end
    invariants[key] = invariants[key] or {}
    if #invariants[key] >= 64 then
      error("ss.invariant: at most 64 invariants in one spec (each runs after every step)", 2)
    end
    table.insert(invariants[key], { name = name and (name .. " (" .. place .. ")") or place, fn = fn })
  end

  -- Snapshots of render trees, beside the spec: __snapshots__/<spec name>/<name>.tree.
  local function lastScreen()
    for i = #order, 1, -1 do
      if open[order[i]] ~= nil then return order[i] end
    end
  end
  local function diff(expected, actual)
    local a, b = {}, {}
    for line in expected:gmatch("(.-)\n") do a[#a + 1] = line end
    for line in actual:gmatch("(.-)\n") do b[#b + 1] = line end
    local lines = {}
    for i = 1, math.max(#a, #b) do
      if a[i] == b[i] then
        lines[#lines + 1] = "    " .. a[i]
      else
        if a[i] then lines[#lines + 1] = "  - " .. a[i] end
        if b[i] then lines[#lines + 1] = "  + " .. b[i] end
      end
    end
    return concat(lines, "\n")
  end
  local function checkSnapshotName(assertion, name, level)
    if type(name) ~= "string" or not name:match("^[%w_%-%.]+$") or name:match("^%.") then
      error("assert." .. assertion .. ": the snapshot name must be a plain file name (letters, digits, _ - .), got "
        .. tostring(name), level + 1)
    end
  end
  -- __snapshots__/<spec name> beside the spec running now.
  local function snapshotFolder()
    local spec = currentFile or "spec"
    return path.join(path.dirname(spec) ~= "" and path.dirname(spec) or ".", "__snapshots__", (path.basename(spec):gsub("%.lua$", "")))
  end
  local function treeMatches(state, arguments, level)
    level = level + 1  -- (luassert's level is its own caller's; this callback is one frame deeper)
    local target, name = arguments[1], arguments[2]
    if arguments.n == 1 then
      name = arguments[1]
      local handle = lastScreen()
      if not handle then error("assert.tree_matches(name): no screen is open (open one with ss.open, or pass it: assert.tree_matches(screen, name))", level) end
      target = prims.tree(handle)
    elseif handles[target] then
      target = prims.tree(handles[target])
    end
    if type(target) ~= "string" then
      error("assert.tree_matches(screen, name): expected a screen (or its tree text) and a snapshot name", level)
    end
    checkSnapshotName("tree_matches", name, level)
    arguments.nofmt = { true, true }
    local folder = snapshotFolder()
    local file = path.join(folder, name .. ".tree")
    local text = target:gsub("\n*$", "\n")
    local stored
    local handle = io.open(file, "r")
    if handle then stored = handle:read("a") handle:close() end
    if settings.updateSnapshots and stored ~= text then
      require("pl.dir").makepath(folder)
      local out = assert(io.open(file, "w"))
      out:write(text)
      out:close()
      print("snapshot written: " .. file)
      return true
    end
    if stored == nil then
      state.failure_message = "no snapshot '" .. name .. "' yet (" .. file .. "); run `sendingstate test --update-snapshots` to record it"
      return false
    end
    if stored == text then return true end
    state.failure_message = "the render tree differs from " .. file .. " (- snapshot, + now; accept it with --update-snapshots):\n" .. diff(stored, text)
    return false
  end
  say:set("assertion.tree_matches.positive", "Expected the render tree to match its snapshot.")
  say:set("assertion.tree_matches.negative", "Expected the render tree not to match its snapshot.")
  luassert:register("assertion", "tree_matches", treeMatches, "assertion.tree_matches.positive", "assertion.tree_matches.negative")

  -- Pictures: __snapshots__/<spec name>/<name>.png, compared pixel by pixel with a tolerance (the
  -- fraction of pixels that may differ; default 0.0001). A mismatch writes <name>.actual.png and
  -- <name>.diff.png beside the snapshot and names them.
  local function pictureMatches(state, arguments, level)
    level = level + 1  -- (luassert's level is its own caller's; this callback is one frame deeper)
    local target, name, options = arguments[1], arguments[2], arguments[3]
    if type(target) == "string" then target, name, options = nil, arguments[1], arguments[2] end
    local handle
    if target == nil then
      handle = lastScreen()
      if not handle then
        error("assert.picture_matches(name): no screen is open (open one with ss.open, or pass it: "
          .. "assert.picture_matches(screen, name))", level)
      end
    else
      handle = handles[target]
      if not handle then error("assert.picture_matches(screen, name [, { tolerance = 0.0001 }]): expected a screen and a snapshot name", level) end
    end
    checkSnapshotName("picture_matches", name, level)
    if name:match("%.actual$") or name:match("%.diff$") then
      error("assert.picture_matches: '" .. name .. "' ends like the pictures a mismatch leaves (.actual, .diff); "
        .. "choose another name", level)
    end
    local tolerance
    if options ~= nil then
      if type(options) ~= "table" then error("assert.picture_matches: the options must be a table such as { tolerance = 0.01 }", level) end
      for key in pairs(options) do
        if key ~= "tolerance" then error("assert.picture_matches: unknown option '" .. tostring(key) .. "' (the one option is tolerance)", level) end
      end
      tolerance = options.tolerance
      if type(tolerance) ~= "number" or tolerance ~= tolerance or tolerance < 0 or tolerance > 1 then
        error("assert.picture_matches: tolerance is the fraction of pixels that may differ, from 0 to 1 (e.g. 0.01), got "
          .. tostring(tolerance), level)
      end
    end
    arguments.nofmt = { true, true, true }
    local file = path.join(snapshotFolder(), name .. ".png")
    -- Negated (assert.is_not.picture_matches), a difference is expected: nothing is recorded,
    -- and no picture of it is left.
    local positive = state.mod ~= false
    local outcome, message = prims.picture(handle, file, positive and settings.updateSnapshots, tolerance, positive)
    if outcome == "matched" then return true end
    if outcome == "recorded" then
      print("snapshot written: " .. message)
      return true
    end
    if outcome == "error" then error(message, level) end
    state.failure_message = message
    return false
  end
  say:set("assertion.picture_matches.positive", "Expected the screen's picture to match its snapshot.")
  say:set("assertion.picture_matches.negative", "Expected the screen's picture not to match its snapshot.")
  luassert:register("assertion", "picture_matches", pictureMatches, "assertion.picture_matches.positive",
    "assertion.picture_matches.negative")

  local function closeOwned(owner)
    for i = #order, 1, -1 do
      local handle = order[i]
      if open[handle] == owner then
        close(handle)
        tracked[handle] = nil
      end
      if open[handle] == nil then table.remove(order, i) end
    end
  end

  return {
    module = module,
    -- The host's `next`: like Lua's, and it walks a read-only screen.state as the state it shows.
    next = stateNext,
    -- A test's lifecycle (before_each … after_each) or a block's begins / ends.
    scopeBegin = function(element) scopes[#scopes + 1] = element end,
    scopeEnd = function(element)
      closeOwned(element)
      if scopes[#scopes] == element then scopes[#scopes] = nil end
    end,
    -- At the end of a test's body: what the screens it asserts exhaustively still owe.
    checkObligations = function(element)
      for i = #order, 1, -1 do
        local handle = order[i]
        if tracked[handle] and (open[handle] == element or open[handle] == scopes[#scopes]) then
          -- Blamed on the test's own line (busted would name the driver's otherwise).
          local trace = element.trace
          local where = trace and trace.short_src and (trace.short_src .. ":" .. tostring(trace.currentline) .. ": ") or ""
          finish(handle, where .. "at the end of the test", -1)
        end
      end
    end,
    closeAll = function()
      for i = #order, 1, -1 do close(order[i]) end
      order = {}
    end,
  }
end
