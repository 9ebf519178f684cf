-- luacheck: std lua54, max line length 160
-- The screen engine's Lua half: views, events, and one pipeline per event.
--
-- One call from the host runs a whole event: the sender's callbacks, every action in order
-- (FIFO, no recursion), each store update validated where it happens, `configure` once with
-- the new state, and the rows that changed. View writes are checked at the line that makes
-- them and logged; the host then commits the event (an uninterruptible call), or aborts it,
-- which puts every view value back. Nothing a script does is visible before the commit.
--
-- Trusted host code: it runs with the real globals.
local S, limits, prims = ...

local type, next, pairs, ipairs, error, tostring, setmetatable, rawequal, rawget, rawset =
  type, next, pairs, ipairs, error, tostring, setmetatable, rawequal, rawget, rawset
local mathtype, huge, floor = math.type, math.huge, math.floor
local concat, sort = table.concat, table.sort
local getinfo = debug.getinfo

-- "file:line: " of where the script function `fn` is defined: the place to blame for what the
-- host does with a function's results after it has returned (no script frame is running then).
local function definedAt(fn)
  local info = type(fn) == "function" and getinfo(fn, "S") or nil
  if info == nil or info.what == "C" then return "" end
  local source = info.source
  source = source:sub(1, 1) == "@" and source:sub(2) or info.short_src
  return source .. ":" .. info.linedefined .. ": "
end

-- "file:line: " of the script code running now; when none is (the host acting on what a
-- script function returned), of `blame`, that function's definition.
local primWhere = prims.where
local blame
local function where()
  local here = primWhere()
  if here == "" and blame ~= nil then return definedAt(blame) end
  return here
end
-- (The state module asks the same: its errors with no script frame name `blame` too; an
-- empty answer when nothing is blamed.)
local function blamed() return definedAt(blame) end
S.setBlame(blamed)
local function blameOn(fn)
  blame = fn
end

local E = {}

-- {======================================================================
-- Phases: what scripts may do now
-- ======================================================================

local messages = {
  idle = "views are read-only outside configure (set view properties in configure)",
  events = "views are read-only in events (declare mappings with on(); views change in configure)",
  callback = "views are read-only in event callbacks (return actions; views change in configure)",
  handle = "views are read-only in handle (change state with store:update; views follow in configure)",
  closed = "the screen is closed",
}
local phase = "idle"   -- idle, layout, events, callback, handle, configure, closed
local context          -- what the engine is running, for error reports ("configure", "handle (action 'add')")


local readOnly = S.readOnly  -- .message: what a write to frozen state says now
local function enter(newPhase, newContext, message)
  local saved, savedContext = phase, context
  phase, context = newPhase, newContext
  if message then readOnly.message = message end
  return saved, savedContext
end

-- "got …" in messages, as the host's own messages say it.
local function describe(value)
  local t = type(value)
  if t == "string" then return #value <= 20 and ("string \"" .. value .. "\"") or "string" end
  if t == "number" then return (mathtype(value) == "integer" and "integer " or "number ") .. tostring(value) end
  if t == "table" then
    local hasFields = false
    for key in pairs(value) do
      if type(key) ~= "number" then hasFields = true break end
    end
    return (#value > 0 and not hasFields) and "a list" or "table"
  end
  return t
end
E.describe = describe

-- }======================================================================

-- {======================================================================
-- The event under way: everything it changes, so it can be committed or undone
-- ======================================================================

local event            -- nil between events
-- Each event's number: a view's `touched[key]` holds the number of the last event that wrote
-- the key (one table per view for its life, instead of a table per written view per event).
local eventSerial = 0

-- The lists of the event begun last. Once it has ended (and the host has read its batch, which
-- happens before any other call into the kernel), the next event empties and reuses them: a
-- table made per event costs its allocation, its growth and the collector's work, several
-- thousand instructions each. A list that grew long is dropped instead (no event keeps a big
-- one alive, nor empties it slot by slot).
local lastEvent
-- (Only the kernel's own sequences come here: appended to, never given holes or other keys.)
local function emptied(t)
  if t == nil then return {} end
  local n = #t
  if n > 64 then return {} end
  for i = n, 1, -1 do t[i] = nil end
  return t
end

-- The lists are only ever appended to (and the sets below only filled while their count
-- grows), so a list whose first slot is empty is empty: most events use few of them, and
-- those they did not use are kept without a call. The record itself is one table for the
-- screen's life, every field set anew here: nothing of an earlier event survives in it.
local function newEvent()
  eventSerial = eventSerial + 1
  local ev = lastEvent
  if ev == nil then
    ev = {
      undo = {}, created = {}, regs = {}, rowPlans = {}, planned = false, pins = {}, pinned = false, actions = {},
      effects = {}, started = 0,
      cancels = {}, cancelCount = 0, warnings = {}, actionCount = 0, unitHostCount = 0, effectRoom = 0,
    }
    lastEvent = ev
  else
    if ev.undo[1] ~= nil then ev.undo = emptied(ev.undo) end        -- rec, key, old, rec, key, old, ...
    if ev.created[1] ~= nil then ev.created = emptied(ev.created) end  -- views made in this event (forgotten on abort)
    if ev.regs[1] ~= nil then ev.regs = emptied(ev.regs) end          -- new registrations: hostVid, vid, key, ...
    if ev.actions[1] ~= nil then ev.actions = emptied(ev.actions) end  -- the action log of the event
    if ev.effects[1] ~= nil then ev.effects = emptied(ev.effects) end  -- effects to start (and ids to cancel) after the commit
    if ev.warnings[1] ~= nil then ev.warnings = emptied(ev.warnings) end
    if ev.planned then ev.rowPlans, ev.planned = {}, false end  -- list -> plan (planned: some)
    if ev.pinned then ev.pins, ev.pinned = {}, false end      -- gesture token -> item, or false to unpin
    if ev.cancelCount > 0 then ev.cancels = {} end         -- id -> true: the ids this event cancels (each once)
    ev.started, ev.cancelCount, ev.actionCount = 0, 0, 0  -- (effects that start work; cancels; actions)
    -- Made only when needed (nil: none): the notes on silence, named-state copies, the
    -- transition tokens it gave, the transition it finished, the committed state a role's
    -- handler replaced for its call.
    ev.quiet, ev.named, ev.tokens, ev.finishedToken, ev.savedCommitted = nil, nil, nil, nil, nil
    ev.unitHostCount, ev.effectRoom = 0, 0
  end
  return ev
end

-- Notes on why the event did less than it might (a callback returned no action, middleware
-- dropped one), for the tools that explain silence; made only when there is one to keep. The
-- host copies them out of Lua's heap, so they are bounded: 16 notes of 400 bytes at most.
local QUIET_NOTES, QUIET_BYTES = 16, 400
local function quiet(note)
  local notes = event.quiet
  if notes == nil then
    notes = {}
    event.quiet = notes
  end
  local n = #notes
  if n < QUIET_NOTES then
    -- (Cut whole characters: a lead byte and its continuation bytes go together.)
    notes[n + 1] = #note > QUIET_BYTES and note:sub(1, QUIET_BYTES):gsub("[\192-\255][\128-\191]*$", "") .. "…" or note
  elseif n == QUIET_NOTES then
    notes[n + 1] = "(and more: only the first " .. QUIET_NOTES .. " are kept)"
  end
end

-- }======================================================================

-- {======================================================================
-- Views: proxies whose reads come from a mirror of the view's values and whose writes are
-- checked at the writing line, then logged
-- ======================================================================

-- The undo log keeps old values; nil ones as NONE (a log with holes would lose entries).
local NONE = {}
-- What a view proxy's metatable names as its read-only data: nothing (the sandbox's rawset only
-- asks whether there is some; a view crossing to Swift reads as an empty table, as it did).
local VIEW_READONLY = {}

local views = {}        -- vid -> rec
local recOf = {}        -- proxy -> rec
local nextVid = 0
local viewCount = 0

-- Checks per property type; each returns the value to store, or nil and what was expected.
local checks = {}
function checks.string(v) if type(v) == "string" then return v end return nil, "string" end
function checks.optionalString(v) if v == nil or type(v) == "string" then return v end return nil, "string" end
function checks.boolean(v) if type(v) == "boolean" then return v end return nil, "boolean" end
function checks.number(v)
  if type(v) == "number" and v == v and v ~= huge and v ~= -huge then return v end
  return nil, "number"
end
function checks.alpha(v)
  if type(v) == "number" and v == v then return v < 0 and 0 or (v > 1 and 1 or v) end
  return nil, "number"
end
function checks.integer(v)
  if mathtype(v) == "integer" then return v end
  if type(v) == "number" and v == floor(v) and v == v and v ~= huge and v ~= -huge then return floor(v) end
  return nil, "integer"
end
function checks.positive(v)
  local n = checks.integer(v)
  if n ~= nil and n >= 1 then return n end
  return nil, "a positive integer"
end
function checks.strings(v)
  if type(v) ~= "table" then return nil, "a list of strings" end
  local list, n = {}, 0
  for key, item in pairs(v) do
    if type(key) ~= "number" or type(item) ~= "string" then return nil, "a list of strings" end
    n = n + 1
  end
  for i = 1, n do
    if v[i] == nil then return nil, "a list of strings" end
    list[i] = v[i]
  end
  return list
end
function checks.axis(v)
  if v == "vertical" or v == "horizontal" then return v end
  return nil, "\"vertical\" or \"horizontal\""
end
function checks.rows(v)
  if type(v) ~= "table" then return nil, "a list" end
  local node = S.freeze(v, "rows")
  if not S.isList(node) then return nil, "a list" end
  return node
end

-- The kinds the host describes, each built on its first use (`prims.kind`; a screen uses a few,
-- and all of them built at open were ~45 KiB of every screen's heap): per kind its properties
-- (check, writable, interactive, deferred), the values a new view has, and the properties'
-- sorted names for messages.
local kindOf, builderNames = prims.kind, prims.builderNames
local kinds = setmetatable({}, {
  __index = function(known, name)
    if type(name) ~= "string" then return nil end
    local kind = kindOf(name)
    if kind == nil then
      known[name] = false  -- (a component's name: asked once)
      return false
    end
    local props, names = kind.props, {}
    for prop, description in pairs(props) do
      names[#names + 1] = prop
      description.test = checks[description.check]
    end
    sort(names)
    local k = { name = name, props = props, names = concat(names, ", "), defaults = kind.defaults, builder = kind.builder }
    -- Reads of a property that is not there are errors; reads of a nil-valued one are nil.
    k.mirrorMeta = {
      __index = function(_, key)
        if props[key] ~= nil then return nil end
        error(where() .. name .. " has no property '" .. tostring(key) .. "' (properties: " .. k.names .. ")", 0)
      end,
    }
    known[name] = k
    return k
  end,
})

-- A write to a view's property: `proxy` is the view as scripts hold it (the proxies' shared
-- __newindex), checked at the line that makes it and logged for undo. A value the view has
-- already changes nothing and is not logged.
local function write(proxy, key, value)
  if phase ~= "configure" and phase ~= "layout" then  -- (writable(), inline: every view write passes here)
    error(where() .. (messages[phase] or messages.idle), 0)
  end
  local rec = recOf[proxy]
  local kind = rec.kind
  local prop = kind.props[key]
  if prop == nil then
    error(where() .. kind.name .. " has no property '" .. tostring(key) .. "' (properties: " .. kind.names .. ")", 0)
  end
  if not prop.writable then
    error(where() .. "property '" .. key .. "' of " .. kind.name .. " is read-only", 0)
  end
  local stored, expected = prop.test(value)
  if stored == nil and (value ~= nil or prop.check ~= "optionalString") then
    error(where() .. kind.name .. "." .. key .. ": expected " .. expected .. ", got " .. describe(value), 0)
  end
  local mirror = rec.mirror
  local old = mirror[key]
  if old == stored and old ~= nil then return end  -- (views hold no value with __eq)
  local touched = rec.touched
  if touched == nil then
    touched = {}
    rec.touched = touched
  end
  if touched[key] ~= eventSerial then
    touched[key] = eventSerial
    local undo = event.undo
    local n = #undo
    if old == nil then old = NONE end
    undo[n + 1], undo[n + 2], undo[n + 3] = rec, key, old
  end
  mirror[key] = stored
end

-- "label#count": a view as tostring shows it.
local function viewName(proxy)
  local mirror = recOf[proxy].mirror
  return mirror.kind .. (mirror.id and ("#" .. mirror.id) or "")
end

local function newView(kindName)
  viewCount = viewCount + 1
  if viewCount > limits.maxViews then
    error(where() .. "more than " .. limits.maxViews .. " views (ui." .. kindName .. "); build fewer views or raise maxViews", 0)
  end
  nextVid = nextVid + 1
  local kind = kinds[kindName]
  local mirror = setmetatable({}, kind.mirrorMeta)
  for key, value in next, kind.defaults do mirror[key] = value end
  mirror.kind = kindName
  local rec = { vid = nextVid, kind = kind, mirror = mirror, children = {}, height = 1 }
  rec.proxy = setmetatable({}, {
    __index = mirror,
    __newindex = write,
    __tostring = viewName,
    __name = kindName,
    __metatable = false,
    __readonly = VIEW_READONLY,  -- (the sandbox's rawset refuses it: a property cannot be shadowed)
  })
  views[rec.vid] = rec
  recOf[rec.proxy] = rec
  local created = event.created
  created[#created + 1] = rec
  return rec
end

-- }======================================================================

-- {======================================================================
-- Scopes: the screen, each list row, each unit: their views by id, their registrations,
-- and what their callbacks receive
-- ======================================================================

local function viewsTable(ids, owner)
  local known = {}
  for id in pairs(ids) do known[#known + 1] = id end
  sort(known)
  local list = concat(known, ", ")
  -- The proxies by id sit in a table of their own that Lua searches in C (`__index` a table, no
  -- function call per access); only a miss runs Lua, to say which ids there are. A scope's ids
  -- never change once it is made, and scripts never reach this table (the metatable is hidden).
  local proxies = {}
  for id, rec in next, ids do proxies[id] = rec.proxy end
  setmetatable(proxies, {
    __index = function(_, id)
      error(where() .. "no view with id '" .. tostring(id) .. "' in " .. owner .. " (ids: " .. list .. ")", 0)
    end,
  })
  return setmetatable({}, {
    __index = proxies,
    __newindex = function(_, id)
      error(where() .. "cannot replace view '" .. tostring(id) .. "': views are built by layout", 0)
    end,
    __pairs = function()
      return function(_, key)
        local nextKey, rec = next(ids, key)
        return nextKey, rec and rec.proxy
      end, nil, nil
    end,
    __metatable = false,
  })
end

-- The views with an id under `root` (the insides of rows and units excluded).
local function collectIds(root, owner)
  local ids, pending = {}, { root }
  while #pending > 0 do
    local rec = pending[#pending]
    pending[#pending] = nil
    local id = rec.mirror.id
    if id ~= nil then
      if ids[id] ~= nil then
        local first = ids[id].line and (" (first used at " .. ids[id].line:gsub(":%s*$", "") .. ")") or ""
        error((rec.line or "") .. "duplicate view id '" .. id .. "' in " .. owner .. first .. "; ids must be unique", 0)
      end
      ids[id] = rec
    end
    if rec.kind.name ~= "list" and rec.kind.name ~= "unit" then
      local children = rec.children
      for i = #children, 1, -1 do pending[#pending + 1] = children[i] end
    end
  end
  return ids
end

local registrationCount = 0

-- `on(sender, event, fn)` for one scope, usable only while its events are declared.
local function makeOn(scope)
  return function(sender, spec, fn)
    if not scope.declaring then
      error(where() .. "on can only be used while events are declared (this one was kept from an earlier call)", 0)
    end
    local rec = recOf[sender]
    if rec == nil or not scope.members[rec] then
      error(where() .. "bad argument #1 to 'on' (a view of " .. scope.owner .. " expected, got " .. type(sender) .. ")", 0)
    end
    if type(fn) ~= "function" then
      error(where() .. "bad argument #3 to 'on' (function expected, got " .. type(fn) .. ")", 0)
    end
    registrationCount = registrationCount + 1
    if registrationCount > limits.maxRegistrations then
      error(where() .. "more than " .. limits.maxRegistrations .. " registrations; declare fewer or raise maxRegistrations", 0)
    end
    local key, name = prims.parseEvent(rec.vid, rec.kind.name, spec, rec.mirror.id)
    if key == nil then error(where() .. name, 0) end
    local bySender = scope.regs[rec] or {}
    scope.regs[rec] = bySender
    local entry = bySender[key]
    if entry == nil then
      entry = { name = name }
      bySender[key] = entry
      local regs = event.regs
      local n = #regs
      regs[n + 1], regs[n + 2], regs[n + 3] = scope.host.vid, rec.vid, key
    end
    entry[#entry + 1] = fn
  end
end

-- A scope over the tree at `root`, hosted by `host` (whose registrations the host installs).
local function newScope(kind, root, host, owner)
  local scope = { kind = kind, root = root, host = host, owner = owner, regs = {}, members = {} }
  scope.ids = collectIds(root, owner)
  local pending = { root }
  while #pending > 0 do
    local rec = pending[#pending]
    pending[#pending] = nil
    scope.members[rec] = true
    rec.scope = scope
    if rec.kind.name ~= "list" and rec.kind.name ~= "unit" then
      for _, child in ipairs(rec.children) do pending[#pending + 1] = child end
    end
  end
  scope.views = viewsTable(scope.ids, owner)
  return scope
end

local function declareEvents(scope, fn, label)
  if fn == nil then return end
  local savedPhase, savedContext = enter("events", label)
  scope.declaring = true
  fn(scope.views, makeOn(scope))
  scope.declaring = false
  phase, context = savedPhase, savedContext
end

-- }======================================================================

-- {======================================================================
-- Building: ui.<kind>{ id = …, properties…, children… }
-- ======================================================================

local ui = {}
local screen = {}      -- what load sets up: functions, scope, lists, units, schema…

local function attach(parent, child, position, builder)
  if child.parent ~= nil then
    error(where() .. builder .. ": child #" .. position .. " already has a parent (a view can be in one place)", 0)
  end
  child.parent = parent
  parent.children[#parent.children + 1] = child
  if child.height + 1 > parent.height then parent.height = child.height + 1 end
  if parent.height > limits.maxDepth then
    error(where() .. builder .. ": views nested deeper than " .. limits.maxDepth, 0)
  end
end

local listFunctions = { row = true, configure = true, events = true }

-- A builder's argument must be a table, and views are built only while a layout runs.
local function checkBuilder(name, spec, takes)
  if type(spec) ~= "table" then
    error(where() .. "ui." .. name .. " takes " .. takes .. ", got " .. type(spec), 0)
  end
  if phase ~= "layout" then
    error(where() .. "ui." .. name .. " builds views only while layout runs (rows, units and components have their own layout)", 0)
  end
end

local function build(kindName, spec)
  checkBuilder(kindName, spec, "a table ({ id = …, properties…, children… })")
  local rec = newView(kindName)
  rec.line = where()
  local children, deferred = {}, {}
  for key, value in next, spec do
    local kt = type(key)
    if kt == "number" then
      local child = recOf[value]
      if child == nil then
        error(where() .. "ui." .. kindName .. ": child #" .. tostring(key) .. " must be a view built with ui.<kind>{…}, got " .. type(value), 0)
      end
      children[#children + 1] = key
    elseif kt ~= "string" then
      error(where() .. "ui." .. kindName .. ": keys are property names or child positions", 0)
    elseif key == "id" then
      if type(value) ~= "string" then
        error(where() .. "ui." .. kindName .. ".id: expected string, got " .. describe(value), 0)
      end
      rec.mirror.id = value
    elseif kindName == "list" and listFunctions[key] then
      if type(value) ~= "function" then
        error(where() .. "ui.list." .. key .. ": expected function, got " .. type(value), 0)
      end
    elseif rec.kind.props[key] and rec.kind.props[key].deferred then  -- set after their bounds
      deferred[#deferred + 1] = key
    else
      write(rec.proxy, key, value)
    end
  end
  for _, key in ipairs(deferred) do write(rec.proxy, key, spec[key]) end
  sort(children)
  for i, position in ipairs(children) do attach(rec, recOf[spec[position]], i, "ui." .. kindName) end
  if kindName == "list" then
    if spec.row == nil then error(where() .. "ui.list needs row = function(ui) … end (it builds one row)", 0) end
    rec.list = {
      rec = rec, row = spec.row, configure = spec.configure, events = spec.events,
      first = 1, visible = {}, pool = {}, count = 0,
    }
    screen.lists[#screen.lists + 1] = rec.list
  elseif kindName == "sections" then
    E.renderSections(rec)
  end
  return rec.proxy
end

local runLayout  -- defined below
-- The unit or component whose layout is running: a component built in it is addressed under
-- it (`<unit id>.<component id>.<view id>`), and inside a unit configures with the unit's data.
local layoutUnit

-- The id a unit or component host's views are addressed under.
local function hostPath(host)
  local around = host.enclosingUnit
  return around and (hostPath(around) .. "." .. host.mirror.id) or host.mirror.id
end

-- What a unit or component's configure gets as its state: the screen's, or, inside a unit, the
-- unit's data.
local function stateAround(host, state)
  local around = host.enclosingUnit
  if around == nil then return state end
  if around.isComponent then return stateAround(around, state) end
  return around.unitData
end

local declareNamed  -- (named states, below)

-- A component from a plugin or the screen's `components`: a unit host whose data is the
-- builder's properties (the props), with its own layout, configure(view, props, state) and
-- events; its views are addressed as `<component id>.<view id>`.
local function buildComponent(name, module, spec)
  checkBuilder(name, spec, "a table of properties")
  local props = {}
  for key, value in next, spec do
    if type(key) ~= "string" then
      error(where() .. "ui." .. name .. ": a component takes properties, not child views", 0)
    end
    if key ~= "id" then props[key] = value end
  end
  if spec.id ~= nil and type(spec.id) ~= "string" then
    error(where() .. "ui." .. name .. ".id: expected string, got " .. describe(spec.id), 0)
  end
  local host = newView("unit")
  host.line = where()
  host.mirror.id = spec.id or name
  host.mirror.type = name
  host.unitData = S.freeze(props, "props")
  local owner = screen.owners.components[name]
  local label = "component '" .. host.mirror.id .. "' (" .. name .. (owner and ", plugin '" .. owner .. "'" or "") .. ")"
  host.isComponent = true
  host.enclosingUnit = layoutUnit
  local savedUnit = layoutUnit
  layoutUnit = host
  local content = runLayout(module.layout, label .. " layout")
  layoutUnit = savedUnit
  attach(host, content, 1, "ui." .. name)
  host.unitScope = newScope("unit", content, host, label)
  host.unitScope.subject = host.unitData
  host.unitConfigure = module.configure
  host.unitLabel = label
  declareNamed(host, module, label .. " ")
  declareEvents(host.unitScope, module.events, label .. " events")
  screen.unitHosts[#screen.unitHosts + 1] = host
  return host.proxy
end

-- `ui.<kind>`: a builder for each view kind, made on first use; then the components.
setmetatable(ui, {
  __index = function(_, name)
    local kind = kinds[name]
    if kind and kind.builder then
      local builder = function(spec) return build(name, spec) end
      rawset(ui, name, builder)
      return builder
    end
    local component = screen.components and screen.components[name]
    if component ~= nil then return function(spec) return buildComponent(name, component, spec) end end
    local known = builderNames()
    for key in pairs(screen.components or {}) do known[#known + 1] = key end
    sort(known)
    error(where() .. "unknown view kind 'ui." .. tostring(name) .. "' (kinds: " .. concat(known, ", ") .. ")", 0)
  end,
  __newindex = function() error(where() .. "ui is read-only", 0) end,
  -- pairs(ui): every builder, made or not yet (as when they were all made at load).
  __pairs = function()
    local names, i = builderNames(), 0
    return function()
      i = i + 1
      local name = names[i]
      if name ~= nil then return name, ui[name] end
    end, ui, nil
  end,
  __metatable = false,
  __readonly = {},  -- (the sandbox's rawset refuses it: a builder cannot be replaced)
})
E.ui = ui

-- Runs a layout function and returns the root it built.
function runLayout(fn, label)
  local saved, savedContext = enter("layout", label)
  local root = fn(ui)
  phase, context = saved, savedContext
  local rec = recOf[root]
  if rec == nil then
    error(where() .. label .. " must return a view built with ui.<kind>{…} (got " .. type(root) .. ")", 0)
  end
  return rec
end

-- }======================================================================

-- {======================================================================
-- Units: server-driven sections, each unit rendered by the screen's `units` module of its
-- type, by a Swift renderer, or as a placeholder
-- ======================================================================

function E.renderSections(container)
  local payload = prims.payload()
  if payload == nil then return end
  local counters = {}
  for sectionIndex, section in ipairs(payload) do
    local stack = newView("stack")
    stack.mirror.id = section.id or ("section" .. sectionIndex)
    attach(container, stack, sectionIndex, "ui.sections")
    for unitIndex, unit in ipairs(section.units) do
      local unitType = unit.type
      counters[unitType] = (counters[unitType] or 0) + 1
      local host = newView("unit")
      host.mirror.id = (type(unit.data) == "table" and unit.data.id) or (unitType .. counters[unitType])
      host.mirror.type = unitType
      host.section, host.unitIndex = sectionIndex, unitIndex
      host.unitData = S.freeze(unit.data, "data")
      local module = screen.units[unitType]
      if module ~= nil then
        local owner = screen.owners.units[unitType]
        local label = "unit '" .. host.mirror.id .. "' (" .. unitType .. (owner and ", plugin '" .. owner .. "'" or "") .. ")"
        local savedUnit = layoutUnit
        layoutUnit = host
        local content = runLayout(module.layout, label .. " layout")
        layoutUnit = savedUnit
        attach(host, content, 1, "unit")
        host.unitScope = newScope("unit", content, host, label)
        host.unitScope.subject = host.unitData
        host.unitConfigure = module.configure
        host.unitLabel = label
        declareEvents(host.unitScope, module.events, label .. " events")
        screen.unitHosts[#screen.unitHosts + 1] = host
      elseif prims.hasSwiftUnit(unitType) then
        host.swift = true
      else
        local known = prims.knownUnits(screen.unitNames)
        local placeholder = newView("label")
        placeholder.mirror.id = "placeholder"
        local savedPhase = phase
        phase = "layout"
        write(placeholder.proxy, "text", "unsupported unit '" .. unitType .. "'")
        phase = savedPhase
        attach(host, placeholder, 1, "unit")
        local warnings = event.warnings
        warnings[#warnings + 1] = "payload section " .. sectionIndex .. ", unit " .. unitIndex .. ": unknown unit type '"
          .. unitType .. "' (known: " .. known .. "); rendered a placeholder"
      end
      attach(stack, host, unitIndex, "ui.sections")
    end
  end
end

-- }======================================================================

-- {======================================================================
-- Actions: what callbacks return, normalized and frozen
-- ======================================================================

local function single(item)
  if type(item) == "string" then return S.freezeFlat({ type = item }, "action") end
  if type(item) == "table" and type(item.type) == "string" then return S.freezeFlat(item, "action") end
  error(where() .. "an action is a table with a string 'type' (or a bare type string), got " .. describe(item), 0)
end

-- The actions `value` names (nil or false: none, on purpose; one action; a list of them),
-- frozen, into `list` from its first slot; returns how many.
local function actionsInto(value, list)
  if value == nil or value == false then return 0 end
  if type(value) == "table" and value.type == nil and (value[1] ~= nil or next(value) == nil) then
    local n = #value
    for i = 1, n do list[i] = single(value[i]) end
    return n
  end
  list[1] = single(value)
  return 1
end

-- The actions `value` names, in a new list.
local function actionsFrom(value)
  local list = {}
  actionsInto(value, list)
  return list
end
E.actionsFrom = actionsFrom

-- }======================================================================

-- {======================================================================
-- The store a handler gets: valid only while that handler runs
-- ======================================================================

local working           -- the event's state (a frozen node), committed at the end
local committed         -- the state last committed
local queue, queueHead
-- Who handles actions in this event: the screen, or a role's script with its validator.
local handler = { fn = nil, validate = nil, effects = true }

local storeMessage = "the store can only be used inside handle (this one was kept from an earlier call)"

local function enqueue(action)
  event.actionCount = event.actionCount + 1
  if event.actionCount > limits.maxActions then
    error(where() .. "more than " .. limits.maxActions .. " actions in one event ('" .. tostring(action.type)
      .. "' keeps being dispatched); a handler that dispatches must stop", 0)
  end
  queue[#queue + 1] = action
end

local storeMethods = {}

local configureMessage = "store updates are not allowed in configure (configure only reads state)"

-- Store methods work only while a handler runs; `store.method(x)` works like `store:method(x)`.
local store
local function checkStore(self, value)
  if phase ~= "handle" then
    error(where() .. (phase == "closed" and messages.closed or (phase == "configure" and configureMessage) or storeMessage), 0)
  end
  if rawequal(self, store) then return value end
  return self
end

-- The store's methods are C functions (prims.boundary, prims.gate): nothing inside them can
-- yield (a coroutine paused halfway through an update would finish it in a later event), and
-- the effects ask who calls them. `store.method(x)` works like `store:method(x)`.

-- The store cannot change state while an update's function runs (from a coroutine there too):
-- what that update returns would overwrite it. The state module knows the updates running (it
-- gives each back on every exit, a failure a script caught included).
local updating = S.updating
local nestedMessage = "store:update and store:set cannot be used inside an update's function (return or write the new state there)"

local function update(self, fn)
  fn = checkStore(self, fn)
  if type(fn) ~= "function" then
    error(where() .. "store:update takes a function (state) → nil or new state, got " .. type(fn), 0)
  end
  if updating[1] ~= nil then error(where() .. nestedMessage, 0) end
  local updated = S.update(working, fn, "state")
  handler.validate(updated)
  working = updated
end

local function set(self, value)
  value = checkStore(self, value)
  if updating[1] ~= nil then error(where() .. nestedMessage, 0) end
  if type(value) ~= "table" then
    error(where() .. "bad argument #2 to 'set' (a state table expected, got " .. describe(value) .. ")", 0)
  end
  local frozen = S.freeze(value, "state")
  handler.validate(frozen)
  working = frozen
end

local function dispatch(self, value)
  value = checkStore(self, value)
  for _, action in ipairs(actionsFrom(value)) do enqueue(action) end
end

-- Rights (see LuaAuthority.c): each effect is checked against the owner of the code that asks
-- for it — the nearest script frame below the store's method (a string), true for the host
-- itself, false when it cannot be told — whoever handed that code the store.
local rights, screenOwner, mayFetch = prims.rights, prims.screenOwner, prims.mayFetch

local function rightsOf(owner)
  if owner == true then return { timers = true, net = { "*" }, tasks = true } end
  return owner and rights[owner] or {}
end

local function whoIs(owner)
  return owner or "code whose owner cannot be told (started on a host function, reached through a tail call "
    .. "into the host, or called as a metamethod or a for loop's iterator)"
end

local function fixFor(owner)
  if owner == screenOwner then return " (declare it in the screen's capabilities, and have it granted)" end
  if type(owner) == "string" and owner:sub(1, 8) == "plugin '" then return " (add it to capabilities in its plugin.lua)" end
  return ""
end

-- The effect `kind` ("after", "fetch", "task") for code of `owner`, or an error at its line.
-- A fetch's URL is read as libcurl reads it; returns the hosts the fetch may reach (every
-- connection it makes, redirects included, is held to them).
local function checkRight(owner, kind, url)
  local granted = rightsOf(owner)
  local who = whoIs(owner)
  if kind == "after" and not granted.timers then
    error(where() .. who .. " may not start timers: it does not have the 'timers' capability" .. fixFor(owner), 0)
  end
  if kind == "task" and not granted.tasks then
    -- (first: code without the right learns nothing of the tasks)
    if type(owner) == "string" and owner:sub(1, 8) == "plugin '" then
      error(where() .. owner .. " may not run host tasks: they are the screen's", 0)
    end
    error(where() .. who .. " may not run host tasks: they are the screen's", 0)
  end
  if kind == "fetch" then
    if granted.net == nil then
      error(where() .. who .. " may not fetch: it does not have the 'net' capability" .. fixFor(owner), 0)
    end
    local allowed, shown, problem = mayFetch(url, granted.net)
    if allowed == nil then
      error(where() .. "bad argument #1 to 'fetch' (" .. problem .. ")", 0)
    end
    if not allowed then
      error(where() .. who .. " may not reach '" .. shown .. "': its net capability lists "
        .. concat(granted.net, ", "), 0)
    end
    return granted.net
  end
end

local function checkEffects()
  if not handler.effects then
    error(where() .. "effects (store:after, store:fetch) are available to screens only", 0)
  end
  if event.started >= (event.effectRoom or 0) then
    error(where() .. "more than " .. limits.maxPendingEffects .. " effects running at once (store:after, store:fetch);"
      .. " start fewer, or raise maxPendingEffects", 0)
  end
end

-- An effect's options: { id = "name", replace = true, debounce = seconds, throttle = seconds,
-- latest = false }, checked; copied into the effect record.
local effectOptionNames = { id = true, replace = true, debounce = true, throttle = true, latest = true }
local function checkId(id, fname, position)
  if type(id) ~= "string" or id == "" or #id > 200 then
    error(where() .. "bad argument #" .. position .. " to '" .. fname .. "' (an effect id is a non-empty string of at most 200 bytes, got "
      .. (type(id) == "string" and "'" .. id:sub(1, 40) .. "'" or type(id)) .. ")", 0)
  end
end
-- A table of the state (a frozen node: its data behind the host's own metatable) as its data,
-- so options and headers taken from the state read as they show; any other value as it is.
local function ownData(value)
  if type(value) == "table" and S.frozenMeta(value) then return S.dataOf(value) end
  return value
end

-- (`more`: the names of an effect's own options besides, e.g. fetch's method, headers, body.)
local function effectOptions(record, options, fname, position, more)
  if options == nil then return record end
  options = ownData(options)
  local bad = "bad argument #" .. position .. " to '" .. fname .. "' ("
  if type(options) ~= "table" then
    error(where() .. bad .. "options must be a table like { id = \"search\", debounce = 0.3 }, got " .. type(options) .. ")", 0)
  end
  for key in next, options do
    if not effectOptionNames[key] and not (more and more[key]) then
      error(where() .. bad .. "unknown option '" .. tostring(key) .. "'; the options are id, replace, debounce, throttle, latest"
        .. (more and ", " .. more.shown or "") .. ")", 0)
    end
  end
  -- Each option is read once, raw (a metamethod cannot answer one value to the check and
  -- another to the copy), and what is checked is what is kept.
  local id, replace, latest = rawget(options, "id"), rawget(options, "replace"), rawget(options, "latest")
  local delays = { debounce = rawget(options, "debounce"), throttle = rawget(options, "throttle") }
  if id ~= nil then checkId(id, fname, position) end
  for _, name in ipairs({ "debounce", "throttle" }) do
    local seconds = delays[name]
    if seconds ~= nil then
      if type(seconds) ~= "number" or seconds ~= seconds or seconds < 0 or seconds > limits.maxEffectDelay then
        error(where() .. bad .. name .. " must be a finite number of seconds from 0 to " .. limits.maxEffectDelay .. ", got " .. tostring(seconds) .. ")", 0)
      end
      if id == nil then
        error(where() .. bad .. name .. " needs an id: the effects it "
          .. (name == "debounce" and "replaces" or "spaces out") .. " are those with the same id)", 0)
      end
    end
  end
  if delays.debounce ~= nil and delays.throttle ~= nil then
    error(where() .. bad .. "debounce and throttle do not go together: choose one)", 0)
  end
  for name, value in next, { replace = replace, latest = latest } do
    if type(value) ~= "boolean" then
      error(where() .. bad .. name .. " must be true or false, got " .. type(value) .. ")", 0)
    end
  end
  if replace and delays.throttle ~= nil then
    error(where() .. bad .. "replace and throttle do not go together: replace would end every window)", 0)
  end
  record.id, record.replace, record.debounce, record.throttle = id, replace == true, delays.debounce, delays.throttle
  record.latest = latest ~= false
  return record
end

-- What a frozen value carries, counted as string bytes plus 16 a value, up to `budget` (the
-- walk stops once past it): the host keeps a copy of an effect's data outside the Lua heap.
local function carried(value, budget)
  local t = type(value)
  if t == "string" then return #value + 16 end
  if t ~= "table" then return 16 end
  local total = 16
  for _, item in next, S.dataOf(value) do
    total = total + carried(item, budget - total)
    if total > budget then return total end
  end
  return total
end
local function checkCarried(value, what)
  local budget = limits.maxEffectBytes
  if carried(value, budget) > budget then
    error(where() .. what .. " carries more than " .. budget .. " bytes of data (maxEffectBytes): the host keeps a copy until the effect ends; "
      .. "keep the data in state and send a small action", 0)
  end
end

local function after(owner, self, seconds, action, options)
  checkStore(self)
  checkEffects()
  checkRight(owner, "after")
  if type(seconds) ~= "number" or seconds ~= seconds or seconds < 0 or seconds > limits.maxEffectDelay then
    error(where() .. "bad argument #1 to 'after' (seconds must be a finite number from 0 to " .. limits.maxEffectDelay
      .. ", got " .. tostring(seconds) .. ")", 0)
  end
  local actions = actionsFrom(action)
  for i = 1, #actions do checkCarried(actions[i], "the action of store:after") end
  local record = effectOptions({ kind = "after", seconds = seconds, actions = actions }, options, "after", 3)
  local effects = event.effects
  effects[#effects + 1] = record
  if record.id ~= nil then event.cancels[record.id] = nil end  -- a later cancel of it counts again
  event.started = event.started + 1
end

-- Async work the host app registered by name (LuaScreen.Options.tasks): `input` goes to it;
-- its value comes back as the `ok` action ({ type = ok, value = … }), a failure as `fail`
-- ({ type = fail, error = "…" }). The screen's own: plugins' code may not run them.
local function run(owner, self, name, input, types, options)
  checkStore(self)
  checkEffects()
  checkRight(owner, "task")
  if type(name) ~= "string" or not prims.hasTask(name) then
    local known = prims.taskNames()
    error(where() .. "bad argument #1 to 'run' (" .. (type(name) == "string" and ("no task named '" .. name:sub(1, 60) .. "'") or "a task name expected")
      .. "; the host registered " .. (known == "" and "none" or known) .. ")", 0)
  end
  local ok, fail = type(types) == "table" and rawget(types, "ok"), type(types) == "table" and rawget(types, "fail")
  if type(ok) ~= "string" or type(fail) ~= "string" then
    error(where() .. "bad argument #3 to 'run' ({ ok = \"type\", fail = \"type\" } expected)", 0)
  end
  local frozenInput = S.freeze(input, "task input")
  checkCarried(frozenInput, "the input of store:run")
  local record = effectOptions({ kind = "task", name = name, input = frozenInput, ok = ok, fail = fail },
    options, "run", 4)
  local effects = event.effects
  effects[#effects + 1] = record
  if record.id ~= nil then event.cancels[record.id] = nil end  -- a later cancel of it counts again
  event.started = event.started + 1
end

-- A fetch's own options: method (GET, POST, PUT, PATCH, DELETE; any case), headers (names
-- that are RFC 9110 tokens, given once each, none the host sets itself; values one line of
-- text; bounded in number and bytes) and body (UTF-8 text, at most maxFetchBodyBytes; not on a
-- GET). Each read once, raw; what is checked is what is kept, in `record`.
local fetchOptionNames = { method = true, headers = true, body = true, shown = "method, headers, body" }
local fetchMethods, hostHeaders = {}, {}
for _, name in ipairs(limits.fetchMethods) do fetchMethods[name] = true end
for _, name in ipairs(limits.fetchHostHeaders) do hostHeaders[name] = true end
local function fetchRequest(record, options)
  options = ownData(options)
  if type(options) ~= "table" then return record end  -- (effectOptions said what is wrong)
  local bad = "bad argument #3 to 'fetch' ("
  local method, body = rawget(options, "method"), rawget(options, "body")
  local headers = ownData(rawget(options, "headers"))
  if method ~= nil then
    if type(method) ~= "string" or not fetchMethods[method:upper()] then
      error(where() .. bad .. "method must be one of " .. concat(limits.fetchMethods, ", ") .. ", got "
        .. (type(method) == "string" and "'" .. method:sub(1, 40) .. "'" or type(method)) .. ")", 0)
    end
    record.method = method:upper()
  end
  if headers ~= nil then
    if type(headers) ~= "table" then
      error(where() .. bad .. "headers must be a table like { [\"Content-Type\"] = \"application/json\" }, got " .. type(headers) .. ")", 0)
    end
    local copy, spelled, count, bytes = {}, {}, 0, 0
    for name, value in next, headers do
      if type(name) ~= "string" or type(value) ~= "string" then
        error(where() .. bad .. "headers map names to strings, like { [\"Content-Type\"] = \"application/json\" }; got a "
          .. type(name) .. " name and a " .. type(value) .. " value)", 0)
      end
      local shown = "'" .. name:sub(1, 60) .. "'"
      if not name:find("^[%w!#%$%%&'%*%+%-%.%^_`|~]+$") then
        error(where() .. bad .. "header name " .. shown .. " is not a token: letters, digits and !#$%&'*+-.^_`|~ only)", 0)
      end
      local lower = name:lower()
      if hostHeaders[lower] or lower:sub(1, 6) == "proxy-" then
        error(where() .. bad .. "header " .. shown .. " is the host's to set; leave it out)", 0)
      end
      if spelled[lower] then
        error(where() .. bad .. "header " .. shown .. " is given twice (as '" .. spelled[lower]:sub(1, 60)
          .. "' too): header names are case-insensitive)", 0)
      end
      if value:find("[\0-\8\10-\31\127]") then
        error(where() .. bad .. "the value of header " .. shown .. " holds a control character (CR, LF, NUL…): "
          .. "a header value is one line of text; this would inject headers)", 0)
      end
      if not value:find("[^ \t]") then
        error(where() .. bad .. "the value of header " .. shown .. " is blank; libcurl would leave the header out "
          .. "(or drop its own): give a value, or leave the header out)", 0)
      end
      spelled[lower], copy[name] = name, value
      count, bytes = count + 1, bytes + #name + #value + 4
      if count > limits.maxFetchHeaders then
        error(where() .. bad .. "more than " .. limits.maxFetchHeaders .. " headers)", 0)
      end
      if bytes > limits.maxFetchHeaderBytes then
        error(where() .. bad .. "the headers hold more than " .. limits.maxFetchHeaderBytes .. " bytes together)", 0)
      end
    end
    record.headers = copy
  end
  if body ~= nil then
    if type(body) ~= "string" then
      error(where() .. bad .. "body must be a string (json.encode(t) makes one of a table), got " .. type(body) .. ")", 0)
    end
    if (record.method or "GET") == "GET" then
      error(where() .. bad .. "a GET sends no body: add method = \"POST\" (or PUT, PATCH, DELETE))", 0)
    end
    if #body > limits.maxFetchBodyBytes then
      error(where() .. bad .. "the body is " .. #body .. " bytes; a fetch sends at most " .. limits.maxFetchBodyBytes
        .. " (maxFetchBodyBytes))", 0)
    end
    if not utf8.len(body) then
      error(where() .. bad .. "the body must be UTF-8 text)", 0)
    end
    record.body = body
  end
  return record
end

local function fetch(owner, self, url, types, options)
  checkStore(self)
  checkEffects()
  if type(url) ~= "string" or not (url:find("^[hH][tT][tT][pP][sS]?://")) then
    error(where() .. "bad argument #1 to 'fetch' (an http(s) URL expected, got '" .. tostring(url) .. "')", 0)
  end
  local ok, fail = type(types) == "table" and rawget(types, "ok"), type(types) == "table" and rawget(types, "fail")
  if type(ok) ~= "string" or type(fail) ~= "string" then
    error(where() .. "bad argument #2 to 'fetch' ({ ok = \"type\", fail = \"type\" } expected)", 0)
  end
  for key in next, types do
    if key ~= "ok" and key ~= "fail" then
      local option = effectOptionNames[key] or fetchOptionNames[key] == true
      error(where() .. "bad argument #2 to 'fetch' (it names the actions only: { ok = \"type\", fail = \"type\" }; "
        .. (option and "'" .. key .. "' is an option: pass it third, store:fetch(url, { ok = …, fail = … }, { "
          .. key .. " = … })" or "unknown key " .. (type(key) == "string" and "'" .. key:sub(1, 60) .. "'" or "of type " .. type(key))) .. ")", 0)
    end
  end
  local hosts = checkRight(owner, "fetch", url)
  local record = effectOptions({ kind = "fetch", url = url, ok = ok, fail = fail, hosts = hosts }, options, "fetch", 3,
    fetchOptionNames)
  fetchRequest(record, options)
  local effects = event.effects
  effects[#effects + 1] = record
  if record.id ~= nil then event.cancels[record.id] = nil end  -- a later cancel of it counts again
  event.started = event.started + 1
end

-- Cancels the effects started with { id = id } (their actions never arrive), once this event
-- commits; pending debounced and throttled ones too.
local function cancel(self, id)
  checkStore(self)
  if not handler.effects then
    error(where() .. "effects (store:after, store:fetch, store:cancel) are available to screens only", 0)
  end
  checkId(id, "cancel", 1)
  if event.cancels[id] then return end  -- cancelled once already in this event
  if event.cancelCount >= 1000 then
    error(where() .. "more than 1000 different ids cancelled in one event (store:cancel); cancel fewer", 0)
  end
  event.cancels[id] = true
  event.cancelCount = event.cancelCount + 1
  local effects = event.effects
  effects[#effects + 1] = { kind = "cancel", id = id }
end

-- `store:m(…)` or `store.m(…)`: the arguments with the store first.
local function method(impl)
  return function(self, ...)
    if rawequal(self, store) then return impl(self, ...) end
    return impl(store, self, ...)
  end
end
local function effect(impl)
  return function(owner, _, self, ...)
    if rawequal(self, store) then return impl(owner, self, ...) end
    return impl(owner, store, self, ...)
  end
end
local boundary, gate = prims.boundary, prims.gate
storeMethods.update = boundary(method(update))
storeMethods.set = boundary(method(set))
storeMethods.dispatch = boundary(method(dispatch))
storeMethods.cancel = boundary(method(cancel))
storeMethods.after = gate(effect(after))
storeMethods.run = gate(effect(run))
storeMethods.fetch = gate(effect(fetch))
-- The effects as the kernel starts them for code it knows the owner of (a screen's reduce).
local effectFor = { after = after, run = run, fetch = fetch }

-- A method is found in `storeMethods` without a function call (the store's __index is that
-- table); `store.state` and unknown keys go on to its own __index. Scripts reach neither table
-- (the metatables are hidden).
setmetatable(storeMethods, {
  __index = function(_, key)
    if key == "state" then
      if phase ~= "handle" then error(where() .. (phase == "closed" and messages.closed or storeMessage), 0) end
      readOnly.message = "store.state is read-only; change it with store:update(fn) or store:set(t)"
      return working
    end
    return nil
  end,
  __metatable = false,
})
store = setmetatable({}, {
  __readonly = {},  -- (the sandbox's rawset refuses it: a method or `state` cannot be shadowed)
  __index = storeMethods,
  __newindex = function()
    error(where() .. "the store is read-only; change state with store:update(fn) or store:set(t)", 0)
  end,
  __metatable = false,
})

function E.storeMethodNames()
  local names = {}
  for name in pairs(storeMethods) do names[#names + 1] = name end
  sort(names)
  return names
end

-- }======================================================================

-- {======================================================================
-- Rows: each list shows a window of its items with reused row views; a row keeps its item
-- while the data at its index stays the same, and one gesture's phases reach one item
-- ======================================================================

local function makeRow(list)
  if viewCount >= limits.maxViews then
    -- Raised here, where the row function can be named: the host view below has no script frame.
    error(definedAt(list.row) .. "more than " .. limits.maxViews .. " views (rows of '" .. (list.rec.mirror.id or "list")
      .. "'); show fewer rows (visibleRows) or raise maxViews", 0)
  end
  local host = newView("row")
  local label = "row of '" .. (list.rec.mirror.id or "list") .. "'"
  local content = runLayout(list.row, label .. " layout")
  attach(host, content, 1, "row")
  local row = { host = host, list = list }
  row.scope = newScope("row", content, host, label)
  row.scope.row = row
  declareEvents(row.scope, list.events, label .. " events")
  return row
end

local function configureRow(list, row, item, index)
  if list.configure == nil then return end
  local saved, savedContext = enter("configure",
    "configure row " .. index .. " of '" .. (list.rec.mirror.id or "list") .. "'", "the item is read-only in configure")
  list.configure(row.scope.views, item)
  phase, context = saved, savedContext
end

-- Plans the window of `list` starting at `first` (1-based), configuring the rows whose item
-- changed; the plan takes effect at the commit.
local function planRows(list, first)
  local items = list.rec.mirror.rows
  local count = items ~= nil and #items or 0
  local limit = list.rec.mirror.visibleRows
  first = first or list.first
  if first > count - limit + 1 then first = count - limit + 1 end
  if first < 1 then first = 1 end
  local last = first + limit - 1
  if last > count then last = count end
  local plan = { first = first, count = count, visible = {}, items = {}, free = {} }
  local previous = event.rowPlans[list]
  local visible = previous and previous.visible or list.visible
  local free = {}
  for index, row in pairs(visible) do
    if index >= first and index <= last then plan.visible[index] = row else free[#free + 1] = row end
  end
  local pool = previous and previous.pool or list.pool
  local poolCopy = {}
  for i = 1, #pool do poolCopy[i] = pool[i] end
  for index = first, last do
    if plan.visible[index] == nil then
      local row = free[#free] or poolCopy[#poolCopy]
      if free[#free] ~= nil then free[#free] = nil
      elseif poolCopy[#poolCopy] ~= nil then poolCopy[#poolCopy] = nil
      else row = makeRow(list) end
      plan.visible[index] = row
    end
  end
  for i = 1, #free do poolCopy[#poolCopy + 1] = free[i] end
  plan.pool = poolCopy
  local itemsData = items ~= nil and S.dataOf(items) or {}
  for index = first, last do
    local row = plan.visible[index]
    local item = itemsData[index]
    local shown = previous and previous.items[row] or row.item
    if not rawequal(shown, item) then configureRow(list, row, item, index) end
    plan.items[row] = item
  end
  event.rowPlans[list] = plan
  event.planned = true
end

-- }======================================================================

-- {======================================================================
-- The pipeline
-- ======================================================================

-- What the engine runs, for error reports: "handle (action 'add')", "event 'tap' on 'plus'".
-- Built once per label and action type, or per registration (and its view's id), instead of
-- one new string per event; at most 256 labels are kept per handler label.
local handleLabels, handleLabelCounts = {}, {}
local function handleLabel(label, actionType)
  local byType = handleLabels[label]
  if byType == nil then
    byType = {}
    handleLabels[label], handleLabelCounts[label] = byType, 0
  end
  local text = byType[actionType]
  if text == nil then
    text = label .. " (action '" .. tostring(actionType) .. "')"
    local count = handleLabelCounts[label]
    if count < 256 and type(actionType) == "string" then
      byType[actionType] = text
      handleLabelCounts[label] = count + 1
    end
  end
  return text
end

local function eventLabel(entry, rec)
  local id = rec.mirror.id or rec.kind.name
  if entry.labelFor ~= id then
    entry.label = "event '" .. entry.name .. "' on '" .. id .. "'"
    entry.labelFor = id
  end
  return entry.label
end

-- The screen's middleware (plugins'), in order, around one action: each gets it (read-only) and
-- returns it, another action, or false/nil to drop it; effects it starts are held to
-- its plugin's capabilities. Returns the action `handle` gets, or nil.
local function throughMiddleware(action)
  local chain = screen.middleware
  if chain == nil or handler ~= screen.handler then return action end
  for i = 1, #chain do
    local mw = chain[i]
    local saved, savedContext = enter("handle",
      "middleware '" .. mw.name .. "' of plugin '" .. mw.plugin .. "' (action '" .. tostring(action.type) .. "')")
    local result = mw.fn(action, store)
    phase, context = saved, savedContext
    if result == nil or result == false then
      quiet(definedAt(mw.fn) .. "middleware '" .. mw.name .. "' of plugin '" .. mw.plugin .. "' dropped action '"
        .. tostring(action.type) .. "' (it returned " .. tostring(result) .. "), so handle never saw it")
      return nil
    end
    local made, actions = pcall(actionsFrom, result)
    if not made or #actions ~= 1 then
      error(definedAt(mw.fn) .. "middleware '" .. mw.name .. "' of plugin '" .. mw.plugin
        .. "' must return one action (or false to drop it)" .. (made and "" or (": " .. tostring(actions))), 0)
    end
    action = actions[1]
  end
  return action
end

local handleReadOnly = "the action is read-only (build a new table for a changed action; change state with store:update)"
local function runHandle()
  local log = event.actions
  while queueHead <= #queue do
    local action = queue[queueHead]
    queueHead = queueHead + 1
    log[#log + 1] = action
    if screen.middleware ~= nil then action = throughMiddleware(action) end
    local fn = handler.fn
    if fn ~= nil and action ~= nil then
      local saved, savedContext = phase, context
      phase, context = "handle", handleLabel(handler.label or "handle", action.type)
      readOnly.message = handleReadOnly
      fn(action, store)  -- (read-only, as state: the log keeps this very value)
      phase, context = saved, savedContext
    end
  end
end

-- Named states (`states = { loading = { set, update, done, transition } }` with
-- `state_name(state)`), of the screen and of each component that declares them (an owner: the
-- screen table, or the component's host). Per owner a machine: its current named state (nil
-- before the first), the transition running (from, to, token), if any, and `stale` when the
-- state changed while it ran. An event works on copies (event.named), which its commit keeps
-- and its abort drops.
local named = setmetatable({}, { __mode = "k" })       -- owner -> machine
local tokenOwner = setmetatable({}, { __mode = "v" })  -- transition token -> owner
local namedTokens = 0

-- A transition's length, checked.
local function seconds(value, what)
  if value == nil then return nil end
  if type(value) ~= "number" or value ~= value or value < 0 or value > limits.maxEffectDelay then
    error(what .. " must be a number of seconds from 0 to " .. limits.maxEffectDelay .. ", got " .. describe(value), 0)
  end
  return value
end
-- Reads the `states` and `state_name` of a module (checked by the host) into `owner`, copied
-- so the script cannot change them later: raw reads, checked again here (what the host
-- checked could be served differently through metatables).
function declareNamed(owner, module, label)
  local states = rawget(module, "states")
  if states == nil then return end
  local stateName = rawget(module, "state_name")
  if type(states) ~= "table" or type(stateName) ~= "function" then
    error(label .. "states must be a table and state_name a function", 0)
  end
  local default = seconds(rawget(module, "state_transition"), label .. "state_transition") or 0
  local copied = {}
  for name, decl in next, states do
    if type(name) ~= "string" or type(decl) ~= "table" then
      error(label .. "states must map names to tables, got " .. describe(name) .. " = " .. describe(decl), 0)
    end
    local entry = { set = rawget(decl, "set"), update = rawget(decl, "update"), done = rawget(decl, "done") }
    for key, fn in next, entry do
      if type(fn) ~= "function" then error(label .. "states." .. name .. "." .. key .. " must be a function", 0) end
    end
    entry.transition = seconds(rawget(decl, "transition"), label .. "states." .. name .. ".transition") or default
    copied[name] = entry
  end
  owner.states, owner.stateName, owner.namedLabel = copied, stateName, label
end

local function namedMachine(owner)
  local copies = event.named
  if copies == nil then
    copies = {}
    event.named = copies
  end
  local m = copies[owner]
  if m == nil then
    local was = named[owner] or {}
    m = { current = was.current, moving = was.moving, stale = was.stale }
    copies[owner] = m
  end
  return m
end

-- Calls a hook of `owner` as its configure is called: (view, state) for the screen, (view,
-- props, state) for a component.
local function callOwner(owner, fn, state)
  if owner.isComponent then return fn(owner.unitScope.views, owner.unitData, state) end
  return fn(owner.scope.views, state)
end

local function runNamedHook(owner, name, key, state)
  local fn = owner.states[name][key]
  if fn ~= nil then
    context = owner.namedLabel .. "states." .. name .. "." .. key
    callOwner(owner, fn, state)
  end
end

local function stateNames(owner)
  local names = {}
  for name in pairs(owner.states) do names[#names + 1] = name end
  sort(names)
  return concat(names, ", ")
end

-- Brings the named state of `owner` in line with `state` (in configure: views writable, state
-- read-only): the same named state again runs its update; another one runs its set then its
-- update, and is current at once, or when its transition's time has passed. While a
-- transition runs, changes wait for its end.
local function settleNamed(owner, state)
  local m = namedMachine(owner)
  if m.moving ~= nil then
    m.stale = true
    return
  end
  context = owner.namedLabel .. "state_name"
  local want
  if owner.isComponent then want = owner.stateName(owner.unitData, state) else want = owner.stateName(state) end
  local decl = type(want) == "string" and owner.states[want]
  if not decl then
    error(definedAt(owner.stateName) .. owner.namedLabel .. "state_name returned " .. describe(want)
      .. ", which is not one of the states (" .. stateNames(owner) .. ")", 0)
  end
  m.stale = nil
  if want == m.current then
    runNamedHook(owner, want, "update", state)
    return
  end
  runNamedHook(owner, want, "set", state)
  runNamedHook(owner, want, "update", state)
  if decl.transition > 0 then
    namedTokens = namedTokens + 1
    m.moving = { from = m.current, to = want, token = namedTokens }
    event.tokens = event.tokens or {}
    event.tokens[namedTokens] = owner  -- (known once the event commits)
    local effects = event.effects
    effects[#effects + 1] = { kind = "transition", seconds = decl.transition, token = namedTokens }
  else
    m.current = want
  end
end

-- A transition's time has passed (token: which one): its state is current, its done runs,
-- and changes that waited are applied.
local function finishTransition(token)
  local owner = tokenOwner[token]
  if owner == nil then return end  -- (an older screen's timer)
  local m = namedMachine(owner)
  local moving = m.moving
  if moving == nil or moving.token ~= token then return end
  m.current, m.moving = moving.to, nil
  local state = committed
  if owner.isComponent then state = stateAround(owner, committed) end
  local saved, savedContext = enter("configure", "", "state is read-only in configure")
  runNamedHook(owner, moving.to, "done", state)
  if m.stale then settleNamed(owner, state) end
  phase, context = saved, savedContext
  event.finishedToken = token  -- forgotten at commit (if the event fails, interruptTransition needs it)
end

-- The end of a transition failed (that event changed nothing): the transition ends
-- interrupted, outside any event. Its set had run, so the owner looks like neither state: none
-- is current, and the next commit that changes the state enters the wanted one afresh.
function E.interruptTransition(token)
  local owner = tokenOwner[token]
  tokenOwner[token] = nil
  local m = owner and named[owner]
  if m ~= nil and m.moving ~= nil and m.moving.token == token then named[owner] = {} end
end

-- How many unit and component hosts the screen has (for tests of what a failed event leaves).
function E.unitHostCount() return screen.unitHosts and #screen.unitHosts or 0 end

-- The named state of the screen (no id) or of the component with this id: current, and the
-- transition's from and to while one runs.
function E.namedPhase(id)
  local owner = screen
  if id ~= nil then
    owner = nil
    for _, host in ipairs(screen.unitHosts) do
      if host.isComponent and host.mirror.id == id then owner = host break end
    end
  end
  if owner == nil or owner.states == nil then return nil end
  local m = named[owner] or {}
  local moving = m.moving
  if moving ~= nil then return { current = m.current, from = moving.from, to = moving.to } end
  return { current = m.current }
end

-- configure and the units' configure, then the rows of lists whose items or window changed.
-- configure gets the state it showed before (nil the first time), and runs only when the state
-- changed: an update that writes the values state already had commits the same state.
local function render(force)
  if force or working ~= committed then  -- (nodes have no __eq: a raw comparison)
    local saved, savedContext = enter("configure", "configure", "state is read-only in configure")
    screen.configure(screen.scope.views, working, committed)
    local hosts = screen.unitHosts
    for i = 1, #hosts do  -- (configure builds no view: the list stays as it is)
      local host = hosts[i]
      if host.unitConfigure ~= nil then
        context = "configure " .. host.unitLabel
        host.unitConfigure(host.unitScope.views, host.unitData, stateAround(host, working))
      end
      if host.states ~= nil then settleNamed(host, stateAround(host, working)) end
    end
    if screen.states ~= nil then settleNamed(screen, working) end
    phase, context = saved, savedContext
  end
  -- (A row's layout may build a list: it is visited too, as ipairs would.)
  local lists, at = screen.lists, 1
  local list = lists[1]
  while list ~= nil do
    local touched = list.rec.touched
    if force or (touched and (touched.rows == eventSerial or touched.visibleRows == eventSerial)) then planRows(list) end
    at = at + 1
    list = lists[at]
  end
  -- Components made in this event (in rows the lists just built, say) enter their named state
  -- (they are the hosts appended since the event began: no walk over the others).
  local copies, hosts = event.named, screen.unitHosts
  for i = event.unitHostCount + 1, #hosts do
    local host = hosts[i]
    if host.states ~= nil and named[host] == nil and (copies == nil or copies[host] == nil) then
      local saved, savedContext = enter("configure", "configure", "state is read-only in configure")
      settleNamed(host, stateAround(host, working))
      copies = event.named
      phase, context = saved, savedContext
    end
  end
end

-- What a callback of `scope` receives as its state: the screen's state, a row's item (the
-- one its gesture began on, while the gesture lasts), or a unit's data.
local function subjectOf(scope, token, gesturePhase)
  if scope.kind == "screen" then
    readOnly.message = "state is read-only in event callbacks (return actions instead)"
    return committed
  end
  readOnly.message = "the item is read-only in event callbacks (return actions instead)"
  if scope.kind == "unit" then return scope.subject end
  local row = scope.row
  local pinned = token and E.pins[token]
  local item = pinned ~= nil and pinned or row.item
  if token ~= nil then
    if gesturePhase == "began" then
      event.pins[token], event.pinned = item, true
    elseif gesturePhase == "ended" or gesturePhase == "cancelled" or gesturePhase == "failed" then
      event.pins[token], event.pinned = false, true
    end
  end
  return item
end

local function begin()
  blameOn(nil)  -- (a reduce whose effects failed in the last event left it set)
  if updating[1] ~= nil then S.resetDrafts() end  -- (an update stopped by a limit, whose closing could not run)
  layoutUnit = nil  -- (a layout that failed in the last event left it set)
  event = newEvent()
  event.unitHostCount = screen.unitHosts and #screen.unitHosts or 0
  queue, queueHead = emptied(queue), 1
  working = committed
end

-- The actions a callback returned, on their way to the queue (emptied as they go).
local returned = {}

-- Callbacks already warned about returning nothing (weak: they go with their screen).
local warnedSilent = setmetatable({}, { __mode = "k" })

-- Runs one event. `sync`: values users changed (vid, key, value, …); `room`: how many more
-- effects may start (maxPendingEffects less those running). kind: "ui" (vid, key,
-- token, gesturePhase), "action" (value), "effect" (list of actions), "scroll" (list vid, first).
function E.send(sync, room, kind, a, b, c, d)
  if phase == "closed" then error(messages.closed, 0) end
  E.sync(sync)
  begin()
  event.effectRoom = room
  handler = screen.handler
  if kind == "ui" then
    if returned[1] ~= nil then returned = {} end  -- (left by a callback's bad action)
    local rec = views[a]
    local scope = rec and rec.scope
    local entry = scope and scope.regs[rec] and scope.regs[rec][b]
    if entry ~= nil then
      local subject = subjectOf(scope, c, d)
      local label = eventLabel(entry, rec)
      for i = 1, #entry do
        local saved, savedContext = phase, context
        phase, context = "callback", label
        local result = entry[i](subject, rec.proxy, d or entry.name)
        phase, context = saved, savedContext
        if result == nil and not warnedSilent[entry[i]] then
          -- Most often a forgotten `return`; said once per callback.
          warnedSilent[entry[i]] = true
          local warnings = event.warnings
          warnings[#warnings + 1] = definedAt(entry[i]) .. "the callback for " .. label
            .. " returned nothing, so the event did nothing; return an action (or false when that is meant)"
        end
        -- The callback has returned, so a bad action (not data, NaN, too deep) is blamed on it
        -- (no script frame runs now: where() names the blamed function's definition).
        blame = entry[i]
        local n = actionsInto(result, returned)
        blame = nil
        if event.actionCount + n > limits.maxActions then
          -- Blame the callback that returned them (it has returned: no script frame is running).
          error(definedAt(entry[i]) .. "more than " .. limits.maxActions .. " actions in one event (the callback for "
            .. label .. " returned " .. n .. "); return fewer", 0)
        end
        if n == 0 then
          quiet(definedAt(entry[i]) .. "the callback for " .. label .. " returned "
            .. (result == nil and "nothing" or result == false and "false" or "no action"))
        end
        for j = 1, n do
          enqueue(returned[j])
          returned[j] = nil
        end
      end
    elseif rec ~= nil then
      quiet("the event reached '" .. tostring(rec.mirror.id or rec.kind.name) .. "', but no callback of the screen is registered for it now")
    end
  elseif kind == "action" then
    for _, action in ipairs(actionsFrom(a)) do enqueue(action) end
  elseif kind == "effect" then
    for i = 1, #a do enqueue(S.freeze(a[i], "action")) end
  elseif kind == "scroll" then
    local rec = views[a]
    if rec ~= nil and rec.list ~= nil then planRows(rec.list, b) end
  elseif kind == "transition" then
    finishTransition(a)
  end
  runHandle()
  render(false)
  return E.commitAfter()
end

-- The options of a reduce effect (its id, replace, debounce, throttle, latest; a fetch's
-- method, headers, body), or nil.
local function optionsOf(spec)
  if spec.id == nil and spec.replace == nil and spec.debounce == nil and spec.throttle == nil
    and spec.latest == nil and spec.method == nil and spec.headers == nil and spec.body == nil then return nil end
  return { id = spec.id, replace = spec.replace, debounce = spec.debounce, throttle = spec.throttle, latest = spec.latest,
    method = spec.method, headers = spec.headers, body = spec.body }
end

-- A screen's `reduce` as a handler: reduce(state, action) returns the next state (nil: the
-- same) and a list of effects — { after = seconds, action = … }, { fetch = url, ok = …,
-- fail = …, method = …, headers = …, body = … } or { dispatch = action } — which go through
-- the store like handle's would (the
-- same checks, limits and capabilities). The state it gets is read-only: it builds a new one.
function E.reducing(reduce)
  return function(action, st)
    local current = st.state
    local nextState, effects = reduce(current, action)
    blameOn(reduce)  -- what follows acts on what reduce returned: errors point at it
    if nextState ~= nil and not rawequal(nextState, current) then
      if type(nextState) ~= "table" then
        error(definedAt(reduce) .. "reduce must return the next state (a table) or nil, got " .. describe(nextState), 0)
      end
      st:set(nextState)
    end
    if effects == nil then
      blameOn(nil)
      return
    end
    if type(effects) ~= "table" then
      error(definedAt(reduce) .. "reduce's second result must be a list of effects, got " .. describe(effects), 0)
    end
    for i, item in ipairs(effects) do
      if type(item) ~= "table" then
        error(definedAt(reduce) .. "effect " .. i .. " of reduce must be a table like { after = 1, action = \"tick\" }", 0)
      -- (Started by the kernel for the screen's reduce: the screen asks.)
      elseif item.after ~= nil then
        effectFor.after(screenOwner, st, item.after, item.action, optionsOf(item))
      elseif item.fetch ~= nil then
        effectFor.fetch(screenOwner, st, item.fetch, { ok = item.ok, fail = item.fail }, optionsOf(item))
      elseif item.run ~= nil then
        effectFor.run(screenOwner, st, item.run, item.input, { ok = item.ok, fail = item.fail }, optionsOf(item))
      elseif item.dispatch ~= nil then
        st:dispatch(item.dispatch)
      elseif item.cancel ~= nil then
        st:cancel(item.cancel)
      else
        error(definedAt(reduce) .. "effect " .. i .. " of reduce is not one of { after = s, action = a }, "
          .. "{ fetch = url, ok = type, fail = type }, { run = task, input = data, ok = type, fail = type }, "
          .. "{ dispatch = action }, { cancel = id } (after, fetch and run take id, replace, debounce, throttle, latest too; "
          .. "fetch takes method, headers, body)", 0)
      end
    end
    blameOn(nil)
  end
end

-- Opens the screen: builds the layout, declares the events, checks the first state, runs
-- configure and fills the lists. The host commits it like an event.
function E.load(module, initial, unitModules, schema, components, middleware, owners)
  begin()
  screen.owners = owners or { components = {}, units = {} }
  screen.lists, screen.unitHosts, screen.units, screen.unitNames = {}, {}, unitModules or {}, {}
  screen.components = components or {}
  screen.middleware = middleware
  for name in pairs(screen.units) do screen.unitNames[#screen.unitNames + 1] = name end
  sort(screen.unitNames)
  screen.configure = module.configure
  declareNamed(screen, module, "")
  if schema ~= nil then screen.schema = S.compileSchema(schema) end
  local schemaRule = screen.schema
  screen.handler = { fn = module.handle, validate = S.validator(schemaRule), effects = true }
  if module.reduce ~= nil then
    screen.handler.fn = E.reducing(module.reduce)
    screen.handler.label = "reduce"
  end
  handler = screen.handler
  local hostRec = newView("screen")
  local root = runLayout(module.layout, "layout")
  attach(hostRec, root, 1, "screen")
  screen.host = hostRec
  screen.scope = newScope("screen", root, hostRec, "the screen")
  declareEvents(screen.scope, module.events, "events")
  context = "initial state"
  local state = S.freeze(initial, "state")
  handler.validate(state)
  working = state
  committed = nil
  render(true)
  return E.commitAfter()
end

-- }======================================================================

-- {======================================================================
-- Roles: Swift views and models, with scripts for configure, events or handle
-- ======================================================================

local roleScopes = {}   -- root vid -> scope

-- Takes in an existing Swift view tree: entries are kind, id (or false), parent position (0
-- for the root) and current values, per view, in order. Returns the vids, in order.
function E.adopt(entries, owner)
  begin()
  local recs, vids = {}, {}
  for i = 1, #entries, 4 do
    local kindName, id, parent, values = entries[i], entries[i + 1], entries[i + 2], entries[i + 3]
    local rec = newView(kindName)
    for key, value in pairs(values) do rec.mirror[key] = value end
    if id then rec.mirror.id = id end
    recs[#recs + 1] = rec
    vids[#vids + 1] = rec.vid
    if parent > 0 then
      local parentRec = recs[parent]
      rec.parent = parentRec
      parentRec.children[#parentRec.children + 1] = rec
    end
  end
  local root = recs[1]
  roleScopes[root.vid] = newScope("role", root, root, owner)
  event = nil
  return vids
end

-- Forgets an adopted tree (its Swift view is gone).
function E.forget(rootVid)
  local scope = roleScopes[rootVid]
  if scope == nil then return end
  roleScopes[rootVid] = nil
  for rec in pairs(scope.members) do
    views[rec.vid] = nil
    recOf[rec.proxy] = nil
    viewCount = viewCount - 1
  end
end

-- configure for a role: fn(view, model) with the model read-only; writes are logged.
function E.roleConfigure(sync, rootVid, fn, model, label)
  E.sync(sync)
  begin()
  local scope = roleScopes[rootVid]
  context = label
  local frozen = S.freezeOwned(model, "model")  -- pushed for this call alone
  local saved, savedContext = enter("configure", label, "the model is read-only in configure")
  fn(scope.views, frozen)
  phase, context = saved, savedContext
  return E.commitAfter()
end

-- events for a role: fn(view, on) declares the registrations of the tree.
function E.roleDeclare(rootVid, fn)
  begin()
  declareEvents(roleScopes[rootVid], fn, "events")
  return E.commitAfter()
end

-- A role's event: the callbacks of (vid, key) with the model at event time; their actions
-- come back in the batch.
function E.roleEvent(sync, rootVid, vid, key, model, gesturePhase)
  E.sync(sync)
  begin()
  local scope = roleScopes[rootVid]
  local rec = views[vid]
  local entry = scope and rec and scope.regs[rec] and scope.regs[rec][key]
  if entry ~= nil then
    readOnly.message = "state is read-only in event callbacks (return actions instead)"
    local subject = S.freezeOwned(model, "state")  -- pushed for this call alone
    local label = eventLabel(entry, rec)
    for i = 1, #entry do
      local saved, savedContext = enter("callback", label)
      local result = entry[i](subject, rec.proxy, gesturePhase or entry.name)
      phase, context = saved, savedContext
      for _, action in ipairs(actionsFrom(result)) do event.actions[#event.actions + 1] = action end
    end
  end
  return E.commitAfter()
end

-- A role's handler: fn(action, store) for `action` and every action it dispatches, on the
-- Swift store's state; `validate(node)` checks each new state (the host decodes it).
function E.roleHandle(fn, action, state, validate)
  begin()
  handler = { fn = fn, validate = validate, effects = false }
  event.savedCommitted = committed or false
  committed = S.freezeOwned(state, "state")  -- pushed for this call alone
  working = committed
  for _, item in ipairs(actionsFrom(action)) do enqueue(item) end
  runHandle()
  local saved = event.savedCommitted
  local result = E.commitAfter()
  committed = saved or nil
  return result
end

-- The `view.<id>` table of an adopted tree.
function E.viewsOf(rootVid)
  local scope = roleScopes[rootVid]
  return scope and scope.views
end

-- }======================================================================

-- {======================================================================
-- Commit and abort (the host runs them where no limit can interrupt them)
-- ======================================================================

E.pins = {}

-- The batch's parts (called only when there is something to report: most events create no
-- view and plan no rows, and the host reads a missing list as empty).
local function createdPart(ev, batch)
  -- New views reachable from a root (the screen, a row); others were built and dropped.
  local reachable, order = {}, {}
  for i = 1, #ev.created do
    local rec = ev.created[i]
    local name = rec.kind.name
    if name == "screen" or name == "row" then
      local pending = { rec }
      while #pending > 0 do
        local top = pending[#pending]
        pending[#pending] = nil
        if not reachable[top] then
          reachable[top] = true
          order[#order + 1] = top
          local children = top.children
          for j = #children, 1, -1 do pending[#pending + 1] = children[j] end
        end
      end
    end
  end
  local creations, children = {}, {}
  for _, rec in ipairs(order) do
    local n = #creations
    creations[n + 1], creations[n + 2], creations[n + 3], creations[n + 4], creations[n + 5], creations[n + 6] =
      rec.vid, rec.kind.name, rec.mirror.id or false, rec.section or 0, rec.unitIndex or 0, rec.swift or false
    if #rec.children > 0 then
      children[#children + 1] = rec.vid
      children[#children + 1] = #rec.children
      for _, child in ipairs(rec.children) do children[#children + 1] = child.vid end
    end
  end
  for i = 1, #ev.created do
    local rec = ev.created[i]
    if not reachable[rec] then  -- built but never placed: forget it
      views[rec.vid] = nil
      recOf[rec.proxy] = nil
      viewCount = viewCount - 1
    end
  end
  batch.created, batch.children = creations, children
end

-- The batch and its list of writes are the same tables from event to event: the host reads a
-- batch before it calls into the kernel again, and most events write a few values.
local batchTable, writesList = {}, {}

local function writesPart(ev, batch)
  -- Writes that changed a value, in the order they were first made.
  local writes, undo = emptied(writesList), ev.undo
  writesList = writes
  for i = 1, #undo, 3 do
    local rec, key, old = undo[i], undo[i + 1], undo[i + 2]
    if old == NONE then old = nil end
    local value = rec.mirror[key]
    if not rawequal(value, old) and views[rec.vid] ~= nil then
      writes[#writes + 1] = rec.vid
      writes[#writes + 1] = key
      writes[#writes + 1] = value
    end
  end
  batch.writes = writes
end

local function listsPart(ev, batch)
  -- Lists: the planned windows take effect.
  local lists = {}
  for list, plan in pairs(ev.rowPlans) do
    list.first, list.count, list.visible, list.pool = plan.first, plan.count, plan.visible, plan.pool
    lists[#lists + 1] = list.rec.vid
    lists[#lists + 1] = plan.count
    lists[#lists + 1] = plan.first
    local rows = {}
    for index, row in pairs(plan.visible) do
      row.item = plan.items[row]
      row.index = index
      rows[#rows + 1] = index
    end
    sort(rows)
    lists[#lists + 1] = #rows
    for _, index in ipairs(rows) do
      lists[#lists + 1] = plan.visible[index].host.vid
      lists[#lists + 1] = index
    end
    for _, row in ipairs(plan.pool) do row.item, row.index = nil, nil end
  end
  batch.lists = lists
end

-- Commits the event and returns its batch (called at the end of send and load, inside
-- prims.critical: hooks off, memory cap lifted).
local function commit()
  local ev = event
  local batch = batchTable
  batch.quiet, batch.created, batch.children, batch.writes, batch.lists, batch.state = nil, nil, nil, nil, nil, nil
  batch.actions, batch.effects, batch.warnings, batch.regs = ev.actions, ev.effects, ev.warnings, ev.regs
  if ev.quiet ~= nil then batch.quiet = ev.quiet end
  if #ev.created > 0 then createdPart(ev, batch) end
  if #ev.undo > 0 then writesPart(ev, batch) end
  if ev.planned then listsPart(ev, batch) end
  if ev.pinned then
    for token, item in pairs(ev.pins) do
      if item == false then E.pins[token] = nil else E.pins[token] = item end
    end
  end
  if working ~= committed then  -- (nodes have no __eq: a raw comparison)
    batch.state = working
    committed = working
  end
  if ev.named ~= nil then
    for owner, m in pairs(ev.named) do named[owner] = m end
  end
  if ev.tokens ~= nil then
    for token, owner in pairs(ev.tokens) do tokenOwner[token] = owner end
  end
  if ev.finishedToken ~= nil then tokenOwner[ev.finishedToken] = nil end
  event = nil
  S.resetDrafts()
  phase, context = "idle", nil
  return batch
end

function E.commitAfter()
  return prims.critical(commit)
end

-- Undoes the event under way: every view value goes back, views made in it are forgotten.
-- Returns what the engine was running when it failed (for the error's context).
function E.abort()
  local failedContext = context
  local ev = event
  if ev ~= nil then
    local undo = ev.undo
    for i = #undo - 2, 1, -3 do
      local rec, key, old = undo[i], undo[i + 1], undo[i + 2]
      if old == NONE then old = nil end
      rec.mirror[key] = old
    end
    for i = 1, #ev.created do
      local rec = ev.created[i]
      views[rec.vid] = nil
      recOf[rec.proxy] = nil
      viewCount = viewCount - 1
    end
    for _, rec in ipairs(ev.created) do rec.parent = nil end
  end
  if ev ~= nil and ev.savedCommitted ~= nil then committed = ev.savedCommitted or nil end
  -- Components built in the failed event (in rows it planned, say) are forgotten with their views.
  local hosts = screen.unitHosts
  if ev ~= nil and hosts ~= nil then
    for i = #hosts, (ev.unitHostCount or 0) + 1, -1 do hosts[i] = nil end
  end
  event = nil
  working = committed
  S.resetDrafts()
  phase, context = phase == "closed" and "closed" or "idle", nil
  return failedContext
end

-- Values the host changed (a switch a user flipped, text typed): vid, key, value, …
function E.sync(changes)
  if changes == nil then return end
  for i = 1, #changes, 3 do
    local rec = views[changes[i]]
    if rec ~= nil then rec.mirror[changes[i + 1]] = changes[i + 2] end
  end
end

-- The views' ids for the host's driver: id -> vid for the screen (units as "unit.view").
function E.ids()
  local result = {}
  for id, rec in pairs(screen.scope.ids) do result[id] = rec.vid end
  for _, host in ipairs(screen.unitHosts) do
    local prefix = hostPath(host)
    for id, rec in pairs(host.unitScope.ids) do result[prefix .. "." .. id] = rec.vid end
  end
  return result
end

-- The ids of one row (its views, by the vid of its host).
function E.rowIds(hostVid)
  local host = views[hostVid]
  for _, list in ipairs(screen.lists) do
    for _, row in pairs(list.visible) do
      if row.host == host then
        local result = {}
        for id, rec in pairs(row.scope.ids) do result[id] = rec.vid end
        return result
      end
    end
  end
  return nil
end

-- The state last committed.
function E.state() return committed end

-- A view's property as scripts read it now (for the host's driver).
function E.mirror(vid, key)
  local rec = views[vid]
  if rec == nil then return nil end
  return rawget(rec.mirror, key)
end

-- The ui.<kind> builders.
function E.builders()
  return builderNames()
end

-- Stops the screen: no callback of it runs again; its views and store answer with an error.
function E.close()
  phase = "closed"
  for _, rec in pairs(views) do
    setmetatable(rec.mirror, { __index = function() error(where() .. messages.closed, 0) end })
    for key in pairs(rec.mirror) do rec.mirror[key] = nil end
  end
end

-- }======================================================================

return E
