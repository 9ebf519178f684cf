-- The screen kernel's engine on its own (Sources/CHostCode/kernel/engine.lua), over its state
-- module, loaded in plain Lua with stand-ins for what the host gives it: three view kinds,
-- events by name, and plain calls where the host has C boundaries. What it checks is what the
-- engine promises the host: one event is one batch (actions, the new state, the writes that
-- changed a value), nothing of a failed event stays, and views change only in configure.

local root = debug.getinfo(1, "S").source:match("^@(.*)/spec/kernel/[^/]*$") or "."
local support = assert(loadfile(root .. "/spec/kernel/support.lua", "t"))(root)
local failure = support.failure

-- The view kinds as the host describes them (`prims.kind`): a fresh table per call, as the
-- host's is (the engine adds each property's check function to it).
local function kindTable(name)
  local readOnly = { check = "optionalString", writable = false, interactive = false, deferred = false }
  local function writable(check)
    return { check = check, writable = true, interactive = false, deferred = false }
  end
  local kinds = {
    stack = {
      builder = true, props = { id = readOnly, kind = readOnly, axis = writable("axis") },
      defaults = { axis = "vertical" },
    },
    label = {
      builder = true, props = { id = readOnly, kind = readOnly, text = writable("optionalString") }, defaults = {},
    },
    button = {
      builder = true,
      props = { id = readOnly, kind = readOnly, title = writable("optionalString"), enabled = writable("boolean") },
      defaults = { enabled = true },
    },
    screen = { builder = false, props = { id = readOnly, kind = readOnly }, defaults = {} },
  }
  local kind = kinds[name]
  if kind == nil then return nil end
  local props = {}
  for key, prop in pairs(kind.props) do
    props[key] = {
      check = prop.check, writable = prop.writable, interactive = prop.interactive, deferred = prop.deferred,
    }
  end
  return { builder = kind.builder, props = props, defaults = kind.defaults }
end

local TAP = 64  -- the key the host gives touchUpInside

-- A fresh kernel: the engine's table (E) and the state module (S).
local function loadKernel()
  local S = support.loadState()
  local limits = {
    maxDepth = 20, maxViews = 100, maxRegistrations = 100, maxActions = 10, maxEffectDelay = 3600,
    maxPendingEffects = 10, maxEffectBytes = 65536, maxFetchBodyBytes = 65536, maxFetchHeaders = 8,
    maxFetchHeaderBytes = 4096, fetchMethods = { "GET", "POST" }, fetchHostHeaders = {},
  }
  local prims = {
    where = function() return "" end,                      -- (no script frame: messages start at the text)
    critical = function(fn, ...) return fn(...) end,       -- (the host's: hooks off, no memory cap)
    boundary = function(fn) return fn end,                 -- (the host's: no yield across it)
    gate = function(fn) return function(...) return fn(true, "", ...) end end,  -- (the host's: who calls)
    rights = {}, screenOwner = "screen",
    mayFetch = function() return true, "example.com" end,
    parseEvent = function(_, _, spec)
      if spec == "touchUpInside" then return TAP, spec end
      return nil, "no event '" .. tostring(spec) .. "'"
    end,
    payload = function() return nil end,
    hasTask = function() return false end, taskNames = function() return "" end,
    hasSwiftUnit = function() return false end, knownUnits = function() return "" end,
    kind = kindTable,
    builderNames = function() return { "button", "label", "stack" } end,
  }
  local E = assert(loadfile(root .. "/Sources/CHostCode/kernel/engine.lua", "t"))(S, limits, prims)
  return E, S
end

-- A counter: a title written on every configure, the count, and two buttons.
local function counter(overrides)
  local module = {
    layout = function(ui)
      return ui.stack {
        id = "root", ui.label { id = "title" }, ui.label { id = "count" },
        ui.button { id = "plus", title = "+" }, ui.button { id = "minus", title = "-" },
      }
    end,
    configure = function(view, state)
      view.title.text = "Counter"
      view.count.text = tostring(state.count)
    end,
    events = function(view, on)
      on(view.plus, "touchUpInside", function() return "increment" end)
      on(view.minus, "touchUpInside", function() return "decrement" end)
    end,
    handle = function(action, store)
      if action.type == "increment" then store:update(function(s) s.count = s.count + 1 end) end
      if action.type == "decrement" then store:update(function(s) s.count = s.count - 1 end) end
    end,
  }
  for key, value in pairs(overrides or {}) do module[key] = value end
  return module
end

-- The writes of a batch as "vid.key=value" strings, in order.
local function writes(batch)
  local result = {}
  local list = batch.writes or {}
  for i = 1, #list, 3 do result[#result + 1] = list[i] .. "." .. list[i + 1] .. "=" .. tostring(list[i + 2]) end
  return result
end

describe("kernel engine", function()
  local E, ids

  local function open(module, state)
    E = loadKernel()
    local batch = E.load(module or counter(), state or { count = 1 })
    ids = E.ids()
    return batch
  end

  local function tap(id) return E.send(nil, 10, "ui", ids[id], TAP) end

  it("loads a screen as one batch: its views, the first state, configure's writes", function()
    local batch = open()
    assert.are.equal(1, batch.state.count)
    -- created: vid, kind, id, section, unit index, Swift view, per view (the screen's host first)
    local kinds = {}
    for i = 2, #batch.created, 6 do kinds[#kinds + 1] = batch.created[i] .. "#" .. tostring(batch.created[i + 1]) end
    assert.are.same(
      { "screen#false", "stack#root", "label#title", "label#count", "button#plus", "button#minus" }, kinds)
    -- Layout's writes and configure's, in the order they were made.
    assert.are.same({
      ids.plus .. ".title=+", ids.minus .. ".title=-", ids.title .. ".text=Counter", ids.count .. ".text=1",
    }, writes(batch))
    -- One registration per sender and event: scope host, sender, event key.
    assert.are.equal(6, #batch.regs)
    assert.are.equal(ids.plus, batch.regs[2])
    assert.are.equal(TAP, batch.regs[3])
  end)

  it("runs a tap as one event: callback, handle, configure; the batch has only what changed", function()
    open()
    local batch = tap("plus")
    assert.are.equal("increment", batch.actions[1].type)
    assert.are.equal(1, #batch.actions)
    assert.are.equal(2, batch.state.count)
    -- The title was written the value it had: not a change, not in the batch.
    assert.are.same({ ids.count .. ".text=2" }, writes(batch))
    assert.are.equal(2, E.state().count)
    assert.are.equal("2", E.mirror(ids.count, "text"))
  end)

  it("commits no state and runs no configure when handle changes nothing", function()
    local configured = 0
    open(counter({
      configure = function(view, state)
        configured = configured + 1
        view.count.text = tostring(state.count)
      end,
      handle = function() end,
    }))
    local batch = tap("plus")
    assert.is_nil(batch.state)
    assert.is_nil(batch.writes)
    assert.are.equal(1, configured)
    assert.are.equal("increment", batch.actions[1].type)
  end)

  it("reuses the batch from event to event without keeping the last event's parts", function()
    open()
    local first = tap("plus")
    local second = E.send(nil, 10, "action", "nothing")
    assert.are.equal(first, second)  -- the same table: the host reads it before the next call
    assert.is_nil(second.state)
    assert.is_nil(second.writes)
    assert.are.equal("nothing", second.actions[1].type)
  end)

  it("undoes a failed event: every view value back, the state as committed", function()
    open(counter({
      configure = function(view, state)
        view.count.text = tostring(state.count)
        if state.count > 1 then error("configure failed at " .. state.count, 0) end
      end,
    }))
    assert.are.equal("configure failed at 2", failure(tap, "plus"))
    E.abort()
    assert.are.equal("1", E.mirror(ids.count, "text"))
    assert.are.equal(1, E.state().count)
    -- The next event starts from the committed state.
    assert.are.equal("configure failed at 2", failure(tap, "plus"))
    E.abort()
    assert.are.equal(1, E.state().count)
  end)

  it("allows view writes only in configure and layout, and names the phase", function()
    open(counter({
      events = function(view, on)
        on(view.plus, "touchUpInside", function(_, sender) sender.title = "tapped" end)
      end,
    }))
    assert.matches("views are read-only in event callbacks", failure(tap, "plus"), 1, true)
    E.abort()
    assert.are.equal("+", E.mirror(ids.plus, "title"))
  end)

  it("checks a write's property and type at the write", function()
    local message = failure(open, counter({ configure = function(view) view.count.size = 3 end }))
    assert.matches("label has no property 'size' (properties: id, kind, text)", message, 1, true)
    message = failure(open, counter({ configure = function(view) view.plus.enabled = "yes" end }))
    assert.matches("button.enabled: expected boolean, got", message, 1, true)
  end)

  it("hands handle a read-only action and its state through the store only", function()
    open(counter({ handle = function(action) action.type = "changed" end }))
    assert.matches("the action is read-only", failure(tap, "plus"), 1, true)
    E.abort()
    open(counter({ handle = function(_, store) store.state.count = 5 end }))
    assert.matches("read-only", failure(tap, "plus"), 1, true)
    E.abort()
    assert.are.equal(1, E.state().count)
  end)

  it("runs the actions of one event in order, each handled once (no recursion)", function()
    local seen = {}
    open(counter({
      events = function(view, on)
        on(view.plus, "touchUpInside", function() return { "a", "b" } end)
      end,
      handle = function(action, store)
        seen[#seen + 1] = action.type
        if action.type == "a" then store:dispatch("c") end
      end,
    }))
    local batch = tap("plus")
    assert.are.same({ "a", "b", "c" }, seen)
    assert.are.equal(3, #batch.actions)
  end)

  it("stops an event with more actions than the limit, blaming the callback", function()
    open(counter({
      events = function(view, on)
        on(view.plus, "touchUpInside", function()
          local many = {}
          for i = 1, 11 do many[i] = "a" .. i end
          return many
        end)
      end,
    }))
    assert.matches("more than 10 actions in one event", failure(tap, "plus"), 1, true)
    E.abort()
    assert.are.equal(1, E.state().count)
  end)

  it("says why a tap did nothing: a callback that returned nothing", function()
    open(counter({
      events = function(view, on) on(view.plus, "touchUpInside", function() end) end,
    }))
    local batch = tap("plus")
    assert.matches("the callback for event 'touchUpInside' on 'plus' returned nothing", batch.quiet[1], 1, true)
    assert.matches("returned nothing, so the event did nothing", batch.warnings[1], 1, true)
    -- Warned once per callback.
    assert.are.equal(0, #tap("plus").warnings)
  end)

  it("builds only the kinds the host describes, and names them", function()
    local message = failure(open, counter({ layout = function(ui) return ui.lable { id = "x" } end }))
    assert.matches("unknown view kind 'ui.lable' (kinds: button, label, stack)", message, 1, true)
    -- Builders are made on first use and kept; pairs(ui) lists every one, made or not.
    local listed = {}
    open(counter({
      layout = function(ui)
        for name, builder in pairs(ui) do listed[#listed + 1] = name .. ":" .. type(builder) end
        return ui.label { id = "title" }
      end,
      configure = function() end,
      events = function() end,
    }))
    assert.are.same({ "button:function", "label:function", "stack:function" }, listed)
    assert.are.same({ "button", "label", "stack" }, E.builders())
  end)
end)
