-- luacheck: std lua54, max line length 160
-- The screen engine's state: committed values are frozen trees that scripts can read but not
-- change, shared between versions (a new version copies only the path that changed), with
-- drafts for updates and one validator for the data rules and the schema.
--
-- Trusted host code: it runs with the real globals and `debug.getmetatable`.
local config = ...
local maxDepth, maxNodes = config.maxDepth, config.maxNodes
-- where() gives "file:line: " of the script's frame that called into the host (host frames,
-- named "=...", are skipped), so errors point at the script however deep the host code is.
-- When no script frame runs (the host acting on what a script function returned), the
-- engine's `blame` says where instead.
local primWhere = config.where
local blame  -- function returning "file:line: ", or nil
local function where()
  local here = primWhere()
  if here == "" and blame ~= nil then return blame() end
  return here
end

local type, next, error, rawget, setmetatable, tostring =
  type, next, error, rawget, setmetatable, tostring
local mathtype, huge, floor = math.type, math.huge, math.floor
local concat, sort = table.concat, table.sort
local dgetmetatable = debug.getmetatable

local S = {}

-- Sets (or clears, with nil) what where() says when no script frame runs.
function S.setBlame(fn) blame = fn end

-- A frozen node's metatable is known by its `__newindex`, a function of this module that no
-- script can reach (metatables are hidden): a node cannot be forged.
-- The marker of drafts' metatable (to tell a draft whose update has ended from other tables).
local DRAFT = {}

-- What a write to read-only state says; the engine sets `message` per phase (a field, not a
-- call: it changes several times an event).
local readOnly = { message = "state is read-only" }
S.readOnly = readOnly
function S.setReadOnlyMessage(message) readOnly.message = message end

local function readOnlyWrite() error(readOnly.message, 2) end
local function nodeLen(node) return #dgetmetatable(node).__index end
local function nodePairs(node) return next, dgetmetatable(node).__index, nil end

-- The metatable of `value` if it is a frozen node.
local function frozenMeta(value)
  local meta = dgetmetatable(value)
  if meta ~= nil and rawget(meta, "__newindex") == readOnlyWrite then return meta end
  return nil
end
S.frozenMeta = frozenMeta

-- The data of a frozen node (a plain table whose tables are nodes).
function S.dataOf(node) return dgetmetatable(node).__index end

-- A frozen node over `data`; `height` and `size` count tables and values per visit. The
-- metatable is made with every key it will hold (r: the schema rule it was checked against;
-- a node made from another also gets pr, changed and l), so it is allocated once at its size.
local function makeNode(data, height, size, keys)
  return setmetatable({}, {
    __index = data, __newindex = readOnlyWrite, __len = nodeLen, __pairs = nodePairs,
    __metatable = false, __readonly = data, h = height, n = size, r = false, k = keys,
  })
end

-- A node made from `baseMeta`'s with the same keys, where only `changed` (a set) differ: it
-- keeps what the base was checked against (pr) and whether it is a list (l), so a check looks
-- at the changed keys alone. One constructor: the metatable is allocated once.
local function makeDerivedNode(data, height, size, baseMeta, changed)
  return setmetatable({}, {
    __index = data, __newindex = readOnlyWrite, __len = nodeLen, __pairs = nodePairs,
    __metatable = false, __readonly = data, h = height, n = size, r = false, k = baseMeta.k,
    pr = baseMeta.r, changed = changed, l = baseMeta.l,
  })
end

-- A node no schema checks (an action): eight keys, the smallest metatable of the size.
local function makeFlatNode(data, size)
  return setmetatable({}, {
    __index = data, __newindex = readOnlyWrite, __len = nodeLen, __pairs = nodePairs,
    __metatable = false, __readonly = data, h = 1, n = size,
  })
end

-- Paths as a script author reads them: state.items[3].price
local function pathString(path, n)
  local parts = { path[1] }
  for i = 2, n do
    local key = path[i]
    if type(key) == "number" then parts[#parts + 1] = "[" .. key .. "]"
    else parts[#parts + 1] = "." .. tostring(key) end
  end
  if n > 8 then  -- as deep as a depth limit: the first steps say enough
    parts = { concat(parts, "", 1, 5), "…" }
  end
  return concat(parts)
end
S.pathString = pathString

-- Raises "file:line: path: problem" at the script's line. (`kind` documents the class; the
-- host classifies messages by their wording.)
local function fail(_, path, depth, problem)
  error(where() .. pathString(path, depth) .. ": " .. problem, 0)
end
S.fail = fail

-- "got …" in messages, as the host's own messages say it.
local function describe(value)
  local t = type(value)
  if t == "string" then return #value <= 20 and ("string \"" .. value .. "\"") or "string" end
  if t == "number" then return (mathtype(value) == "integer" and "integer " or "number ") .. tostring(value) end
  if t == "table" then
    local data = frozenMeta(value) and dgetmetatable(value).__index or value
    for key in next, data do
      if type(key) ~= "number" then return "table" end
    end
    return #data > 0 and "a list" or "table"
  end
  return t
end
S.describe = describe

local function isFinite(n) return n == n and n ~= huge and n ~= -huge end

-- Freezes `value` found at path[1..depth]: scalars are checked, frozen nodes kept, drafts
-- finalized, plain tables copied into new nodes. Returns the value, its height and size.
-- `seen` holds the plain tables on the way down (a cycle is an error).
local freeze
local finalize
local finishTop

local function freezeTable(source, owned, path, depth, seen)
  -- `owned`: the table is the engine's own copy and may become the node's data.
  if depth > maxDepth + 1 then
    fail("too large", path, depth - 1, "nested deeper than " .. maxDepth)
  end
  local data = owned and source or {}
  local height, size, count, largest, keys = 1, 1, 0, 0, 0
  for key, value in next, source do
    keys = keys + 1
    local kt = type(key)
    if kt == "number" then
      if mathtype(key) ~= "integer" then
        if key == floor(key) and isFinite(key) then key = floor(key)
        else fail("type mismatch", path, depth - 1, "table has a non-string key (number " .. tostring(key) .. "); use string keys or a list") end
      end
      if key < 1 then
        fail("type mismatch", path, depth - 1, "list has a hole: key " .. key .. " (lists use keys 1…n)")
      end
      count = count + 1
      if key > largest then largest = key end
    elseif kt ~= "string" then
      fail("type mismatch", path, depth - 1, "table has a non-string key (" .. kt .. "); use string keys or a list")
    end
    path[depth] = key
    local frozen, h, n = freeze(value, path, depth + 1, seen)
    path[depth] = nil
    data[key] = frozen
    if h + 1 > height then height = h + 1 end
    size = size + n
    if size > maxNodes then
      fail("too large", path, depth - 1, "more than " .. maxNodes .. " values (a table shared by several fields counts each time)")
    end
  end
  if largest ~= count then
    fail("type mismatch", path, depth - 1, "list has a hole: key " .. largest .. " with " .. count .. " elements (lists use keys 1…n)")
  end
  return makeNode(data, height, size, keys), height, size
end

freeze = function(value, path, depth, seen)
  local t = type(value)
  if t == "string" or t == "boolean" then return value, 0, 1 end
  if t == "number" then
    if value ~= value then fail("type mismatch", path, depth - 1, "NaN is not a valid value") end
    if value == huge or value == -huge then
      fail("type mismatch", path, depth - 1, (value > 0 and "" or "-") .. "infinity is not a valid value (numbers must be finite)")
    end
    return value, 0, 1
  end
  if t == "nil" then return nil, 0, 0 end
  if t == "table" then
    local meta = dgetmetatable(value)
    if meta == nil then
      if seen[value] then fail("type mismatch", path, depth - 1, "the table contains itself (a cycle)") end
      seen[value] = true
      local node, h, n = freezeTable(value, false, path, depth, seen)
      seen[value] = nil
      return node, h, n
    end
    if rawget(meta, "__newindex") == readOnlyWrite then
      if meta.h + depth - 2 > maxDepth then
        fail("too large", path, depth - 1, "nested deeper than " .. maxDepth)
      end
      return value, meta.h, meta.n
    end
    local result = finalize(value, path, depth, seen)
    if result ~= nil then
      -- A draft's node is as deep as what it holds; where it lands counts too.
      local h = S.heightOf(result)
      if h + depth - 2 > maxDepth then
        fail("too large", path, depth - 1, "nested deeper than " .. maxDepth)
      end
      return result, h, S.sizeOf(result)
    end
    if rawget(meta, DRAFT) then
      fail("type mismatch", path, depth - 1, "this draft belongs to a store:update that has ended (keep values, not drafts)")
    end
    fail("type mismatch", path, depth - 1, "a table with a metatable is not data (views and stores cannot be stored in state)")
  end
  fail("type mismatch", path, depth - 1, (t == "function" and "functions" or t .. " values") .. " are not data and cannot be stored in state")
end

-- The path and the set of tables on the way down that a top-level freeze or check uses: one
-- of each for the process, not two new tables per call. A call that failed may leave entries
-- behind (its error went up through pcall), so a set that is not empty is replaced; the path
-- is only ever read up to the depth being written.
local scratchPath, scratchSeen = {}, {}
local function pathFrom(root)
  scratchPath[1] = root
  return scratchPath
end
local function emptySeen()
  if next(scratchSeen) ~= nil then scratchSeen = {} end
  return scratchSeen
end

function S.heightOf(value)
  local meta = type(value) == "table" and frozenMeta(value)
  return meta and meta.h or 0
end

function S.sizeOf(value)
  local meta = type(value) == "table" and frozenMeta(value)
  return meta and meta.n or 1
end

-- Freezes a whole value given by a script (store:set, a returned state, rows): a deep copy
-- of plain tables, checked.
function S.freeze(value, root)
  local frozen = freeze(value, pathFrom(root), 2, emptySeen())
  return frozen
end

-- S.freeze for the usual action: a plain table of string keys and scalar values, checked and
-- copied in one loop (anything else goes the general way, which also says what is wrong).
function S.freezeFlat(value, root)
  if dgetmetatable(value) ~= nil then return S.freeze(value, root) end
  local data, size = {}, 1
  for key, v in next, value do
    local tv = type(v)
    if type(key) ~= "string"
      or not (tv == "string" or tv == "boolean" or (tv == "number" and v == v and v ~= huge and v ~= -huge)) then
      return S.freeze(value, root)
    end
    data[key] = v
    size = size + 1
  end
  if size > maxNodes then return S.freeze(value, root) end
  return makeFlatNode(data, size)
end

-- Like S.freeze, for a table the host has just made for this call and nobody else holds (a
-- role's model or state): its top level becomes the frozen data itself instead of a copy.
function S.freezeOwned(value, root)
  if type(value) ~= "table" or dgetmetatable(value) ~= nil then return S.freeze(value, root) end
  local seen = emptySeen()
  seen[value] = true
  local node = freezeTable(value, true, pathFrom(root), 2, seen)
  seen[value] = nil
  return node
end

-- One value for the state's purposes: Lua's raw equality, but a number keeps its subtype
-- (2 and 2.0 are equal in Lua, yet tostring, JSON and Swift tell them apart, so writing 2.0
-- over 2 is a change).
local function same(a, b)
  return rawequal(a, b) and (type(a) ~= "number" or mathtype(a) == mathtype(b))
end

-- Shallow equality of two data tables (after their values are frozen): an update that
-- writes the values a table already had yields the same node.
local function sameData(a, b)
  for key, value in next, a do
    if not same(b[key], value) then return false end
  end
  for key in next, b do
    if a[key] == nil then return false end
  end
  return true
end

-- {======================================================================
-- Drafts: what store:update hands its function. Reads give drafts of the nested tables;
-- the first write to a table copies it (shallowly); finishing freezes only what changed.
-- ======================================================================

local drafts = {}     -- draft -> { node, base, copy, kids, result }: this event's drafts
local revokedMessage = "this draft belongs to a store:update that has ended (keep values, not drafts)"

local function info(draft)
  local entry = drafts[draft]
  if entry == nil then error(revokedMessage, 3) end
  return entry
end

local DraftMeta = { [DRAFT] = true }
local noKids = setmetatable({}, { __newindex = function() error("noKids is empty by design", 2) end })
local draftList = {}  -- the drafts of the update under way, to revoke when it ends
local updateStarts = {}  -- where in draftList each update under way began
-- The updates under way (a list: empty when none runs; the engine reads updating[1]).
S.updating = updateStarts

-- A draft stands for a frozen node: reads come from its copy (once written) or the node's
-- data; a nested table read is a draft of its own (a kid), kept per key while the slot still
-- holds the node it was made from.
local function newDraft(node)
  local draft = setmetatable({}, DraftMeta)
  drafts[draft] = { node = node, base = dgetmetatable(node).__index, copy = nil, kids = nil, written = nil }
  draftList[#draftList + 1] = draft
  return draft
end

-- Forgets every draft (the engine calls this when an event ends, committed or not).
function S.resetDrafts()
  if next(drafts) ~= nil then drafts = {} end
  if draftList[1] ~= nil then draftList = {} end
  for i = #updateStarts, 1, -1 do updateStarts[i] = nil end  -- (the one table: S.updating is it)
end

DraftMeta.__index = function(draft, key)
  local s = info(draft)
  local value = (s.copy or s.base)[key]
  if type(value) == "table" and frozenMeta(value) then
    local kids = s.kids
    if kids == nil then
      kids = {}
      s.kids = kids
    end
    local kid = kids[key]
    local kidEntry = kid and drafts[kid]
    if kidEntry == nil or kidEntry.node ~= value then
      kid = newDraft(value)
      kids[key] = kid
    end
    return kid
  end
  return value
end

DraftMeta.__newindex = function(draft, key, value)
  local s = info(draft)
  local copy = s.copy
  if copy == nil then
    copy = {}
    for k, v in next, s.base do copy[k] = v end
    s.copy = copy
    s.written = {}
  end
  copy[key] = value
  s.written[key] = true
end

DraftMeta.__len = function(draft)
  local s = info(draft)
  return #(s.copy or s.base)
end

DraftMeta.__pairs = function(draft)
  local s = info(draft)
  return function(_, key)
    local nextKey = next(s.copy or s.base, key)
    if nextKey == nil then return nil end
    return nextKey, draft[nextKey]
  end, draft, nil
end

DraftMeta.__metatable = false

-- A node like the draft's own, with only the `keys` of `source` changed (a copy of its data
-- whose other values are the node's frozen values): the work is proportional to the keys,
-- not to the table. nil when the keys change the table's shape (a key added or removed): then
-- the whole table is frozen and checked again.
local function withChanges(s, source, keys, path, depth, seen)
  local base = s.base
  for key in next, keys do
    if base[key] == nil or source[key] == nil then return nil end
  end
  local baseMeta = dgetmetatable(s.node)
  local height, size, lowered = baseMeta.h, baseMeta.n, false
  local unchanged = true
  for key in next, keys do
    local old = base[key]
    path[depth] = key
    local frozen, h, n = freeze(source[key], path, depth + 1, seen)
    path[depth] = nil
    source[key] = frozen
    if not same(frozen, old) then unchanged = false end
    local oldHeight = S.heightOf(old)
    size = size - S.sizeOf(old) + n
    if h + 1 > height then height = h + 1
    elseif h < oldHeight and oldHeight + 1 == baseMeta.h then lowered = true end  -- maybe the tallest
  end
  if unchanged then return s.node end
  if lowered then
    height = 1
    for _, value in next, source do
      local h = S.heightOf(value)
      if h + 1 > height then height = h + 1 end
    end
  end
  if size > maxNodes then
    fail("too large", path, depth - 1, "more than " .. maxNodes .. " values (a table shared by several fields counts each time)")
  end
  -- Same keys as the base: whatever the base was checked against, only these keys can break.
  return makeDerivedNode(source, height, size, baseMeta, keys)
end

-- The frozen value a draft stands for now (memoized: a draft may sit in two places). Kids
-- whose slot still holds their node are finished in place; untouched parts stay shared, and
-- only the keys written or changed below are frozen and, later, checked.
finalize = function(draft, path, depth, seen)
  local s = drafts[draft]
  if s == nil then return nil end  -- not a draft of ours
  if s.result == false then fail("type mismatch", path, depth - 1, "the table contains itself (a cycle)") end
  if s.result ~= nil then return s.result end
  s.result = false  -- (under way: met again below it, it is a cycle)
  local source = s.copy
  local changed = source ~= nil
  local keys = {}
  if s.written then for key in next, s.written do keys[key] = true end end
  for key, kid in next, s.kids or noKids do
    local slot = (source or s.base)[key]
    local kidEntry = drafts[kid]
    if kidEntry ~= nil and rawequal(slot, kidEntry.node) then  -- the slot still holds what the kid was made from
      path[depth] = key
      local value = finalize(kid, path, depth + 1, seen)
      path[depth] = nil
      if not rawequal(value, slot) then
        if source == nil then
          source = {}
          for k, v in next, s.base do source[k] = v end
        end
        source[key] = value
        keys[key] = true
        changed = true
      end
    end
  end
  if not changed then
    s.result = s.node
    return s.node
  end
  local node = withChanges(s, source, keys, path, depth, seen)
  if node == nil then
    node = freezeTable(source, true, path, depth, seen)
    if sameData(dgetmetatable(node).__index, s.base) then node = s.node end
  end
  s.result = node
  return node
end

-- The node an update's top-level copy stands for: `node` itself when no value changed; a node
-- sharing what did not change otherwise. The same keys as `node` keep what it was checked
-- against, so only the changed keys are checked again; another set of keys is frozen and
-- checked whole.
finishTop = function(node, base, top, path, seen)
  -- structural: a changed key held or holds a table (height and size then change).
  local data, changed, reshaped, count, structural = {}, nil, false, 0, false
  for key, value in next, top do
    count = count + 1
    local old = base[key]
    if old == nil then reshaped = true end
    local tv = type(value)
    local frozen = value
    -- (A new key of another type stays as it is: freezeTable below checks it before its value.)
    if old == nil and type(key) ~= "string" then
      reshaped = true
    elseif tv == "string" or tv == "boolean" or (tv == "number" and value == value and value ~= huge and value ~= -huge) then
      -- A scalar (most writes): checked here, without a call. (Frozen values are nodes, which
      -- have no __eq: `~=` is raw here.)
      if value ~= old or (tv == "number" and mathtype(value) ~= mathtype(old)) then
        if changed == nil then changed = {} end
        changed[key] = true
        if type(old) == "table" then structural = true end
      end
    else
      -- (The copy is on the way down: placed inside itself, it is a cycle. Marked only when a
      -- value needs the general freeze; an error leaves the set dirty, and the next freeze
      -- takes a new one.)
      seen[top] = true
      path[2] = key
      frozen = freeze(value, path, 3, seen)
      path[2] = nil
      if not same(frozen, old) then
        if changed == nil then changed = {} end
        changed[key] = true
        structural = true
      end
    end
    data[key] = frozen
  end
  seen[top] = nil
  local baseMeta = dgetmetatable(node)
  if not reshaped then
    -- Every key of the copy is the base's: the same keys when there are as many.
    local keys = baseMeta.k
    if keys ~= nil then
      reshaped = keys ~= count
    else
      for key in next, base do
        if data[key] == nil then reshaped = true break end
      end
    end
  end
  if reshaped then return freezeTable(data, true, path, 2, seen) end
  if changed == nil then return node end
  local height, size, lowered = baseMeta.h, baseMeta.n, false
  if not structural then  -- scalars over scalars: the same height and size
    return makeDerivedNode(data, height, size, baseMeta, changed)
  end
  for key in next, changed do
    local old, value = base[key], data[key]
    local oldHeight, h = S.heightOf(old), S.heightOf(value)
    size = size - S.sizeOf(old) + S.sizeOf(value)
    if h + 1 > height then height = h + 1
    elseif h < oldHeight and oldHeight + 1 == baseMeta.h then lowered = true end  -- maybe the tallest
  end
  if lowered then
    height = 1
    for _, value in next, data do
      local h = S.heightOf(value)
      if h + 1 > height then height = h + 1 end
    end
  end
  if size > maxNodes then
    fail("too large", path, 1, "more than " .. maxNodes .. " values (a table shared by several fields counts each time)")
  end
  return makeDerivedNode(data, height, size, baseMeta, changed)
end

-- Runs fn(draft of `node`) and returns the new frozen state: fn's result when it returns a
-- table, the draft otherwise. The update's drafts are revoked afterwards. An error in fn
-- propagates as it is (the event then ends uncommitted, and its drafts are forgotten).
--
-- fn gets a plain copy of the top level (reads and writes there are plain table accesses, and
-- `pairs` and `#` work as on any table) whose tables are drafts. The copy is the script's: the
-- new node gets a copy of its own, so a copy kept past the update changes nothing.
-- Revokes the drafts of the update that is ending, whether it returns or fails: a draft that
-- outlived a failed update (one a script caught with pcall) could still be written, and its
-- copy may already be a frozen node's data. (A to-be-closed variable runs on every exit
-- without catching the error, so a memory error stays one.)
local revokeOnExit = setmetatable({}, {
  __close = function()
    local n = #updateStarts
    local first = updateStarts[n]
    updateStarts[n] = nil
    for i = #draftList, first, -1 do
      drafts[draftList[i]] = nil
      draftList[i] = nil
    end
  end,
})

function S.update(node, fn, root)
  updateStarts[#updateStarts + 1] = #draftList + 1
  local _ <close> = revokeOnExit
  local base = dgetmetatable(node).__index
  local top = {}
  for key, value in next, base do
    if type(value) == "table" then value = newDraft(value) end  -- (a node's tables are nodes)
    top[key] = value
  end
  local result = fn(top)
  local path, seen = pathFrom(root), emptySeen()
  local frozen
  if result ~= nil and type(result) == "table" and not rawequal(result, top) then
    frozen = freeze(result, path, 2, seen)
  else
    frozen = finishTop(node, base, top, path, seen)
  end
  return frozen
end

-- }======================================================================

-- {======================================================================
-- Schema: field types every new state must fit ("string", "number", "integer", "boolean",
-- "table", "list", "any", with ? for optional; nested tables; one-item lists for items).
-- ======================================================================

local typeNames = { string = true, number = true, integer = true, boolean = true, table = true, list = true, any = true }
local typeList = "any, boolean, integer, list, number, string, table"

local function compileRule(spec, path, depth)
  local t = type(spec)
  if t == "string" then
    local optional = spec:sub(-1) == "?"
    local name = optional and spec:sub(1, -2) or spec
    if not typeNames[name] then
      fail("type mismatch", path, depth, "unknown type '" .. name .. "' (use " .. typeList .. ", with ? for optional)")
    end
    return { kind = "type", name = name, optional = optional }
  end
  if t == "table" and frozenMeta(spec) == nil then
    local count, hasFields = 0, false
    for key in next, spec do
      if type(key) == "string" then hasFields = true else count = count + 1 end
    end
    if count == 1 and not hasFields and spec[1] ~= nil then
      path[depth + 1] = 1
      local item = compileRule(spec[1], path, depth + 1)
      path[depth + 1] = nil
      return { kind = "list", item = item }
    end
    if count == 0 then
      local fields, names = {}, {}
      for key, value in next, spec do
        path[depth + 1] = key
        fields[key] = compileRule(value, path, depth + 1)
        path[depth + 1] = nil
        names[#names + 1] = key
      end
      sort(names)
      return { kind = "object", fields = fields, names = names, list = concat(names, ", ") }
    end
  end
  fail("type mismatch", path, depth, "expected a type name, a nested schema, or a one-item list schema")
end

-- Compiles a screen's schema table (errors name the schema field).
function S.compileSchema(spec)
  if type(spec) ~= "table" then
    fail("type mismatch", { "schema" }, 1, "expected a table of field types")
  end
  local rule = compileRule(spec, { "schema" }, 1)
  if rule.kind ~= "object" then
    fail("type mismatch", { "schema" }, 1, "expected a table of field types")
  end
  return rule
end

local function dataOf(value) return dgetmetatable(value).__index end

-- Whether a frozen value is a list (only number keys); remembered in its metatable, and
-- handed on to nodes made from it with the same keys.
local function isList(value)
  if type(value) ~= "table" then return false end
  local meta = frozenMeta(value)
  if meta == nil then return false end
  if meta.l == nil then
    local list = true
    for key in next, meta.__index do
      if type(key) ~= "number" then list = false break end
    end
    meta.l = list
  end
  return meta.l
end
S.isList = isList

local function isObject(value)
  if type(value) ~= "table" then return false end
  local data = dataOf(value)
  return data[1] == nil or next(data) == nil
end

-- Raises the schema's complaint about `value` at path[1..depth].
local function mismatch(value, path, depth, expected)
  if value == nil then
    fail("type mismatch", path, depth, "missing (schema: " .. expected .. ")")
  end
  fail("type mismatch", path, depth, "expected " .. expected .. ", got " .. describe(value) .. " (schema)")
end

-- Checks frozen `value` against `rule` at path[1..depth]; nodes already checked against the
-- same rule are skipped, so a commit checks only what changed. (No closure or table is made
-- per call: a list of rows is checked row by row.)
local function check(value, rule, path, depth)
  local kind = rule.kind
  if kind == "type" then
    if value == nil then
      if rule.optional then return end
      mismatch(value, path, depth, rule.name)
    end
    local name, t = rule.name, type(value)
    local fits
    if name == "any" then fits = true
    elseif name == "integer" then fits = mathtype(value) == "integer" or (t == "number" and value == floor(value))
    elseif name == "table" then fits = t == "table"
    elseif name == "list" then fits = isList(value)
    else fits = t == name end
    if not fits then mismatch(value, path, depth, name) end
    return
  end
  if value == nil and rule.optional then return end
  local meta = type(value) == "table" and frozenMeta(value)
  if meta and meta.r == rule then return end
  if meta and meta.pr == rule and meta.changed then
    -- Made from a node that fit `rule`, with the same keys: only the changed keys can break it.
    local data = meta.__index
    for key in next, meta.changed do
      path[depth + 1] = key
      check(data[key], kind == "object" and rule.fields[key] or rule.item, path, depth + 1)
      path[depth + 1] = nil
    end
    meta.r, meta.pr, meta.changed = rule, nil, nil
    return
  end
  if kind == "object" then
    if not isObject(value) then mismatch(value, path, depth, "a table with fields") end
    local data = meta.__index
    local fields = rule.fields
    -- The first field not in the schema, in sorted order (an object's keys are strings).
    local stray
    for key in next, data do
      if fields[key] == nil and (stray == nil or key < stray) then stray = key end
    end
    if stray ~= nil then
      path[depth + 1] = stray
      fail("type mismatch", path, depth + 1, "not in the schema (fields: " .. rule.list .. ")")
    end
    local names = rule.names
    for i = 1, #names do
      local key = names[i]
      path[depth + 1] = key
      check(data[key], fields[key], path, depth + 1)
      path[depth + 1] = nil
    end
  else  -- list
    if not isList(value) then mismatch(value, path, depth, "a list") end
    local data = meta.__index
    local item = rule.item
    for i = 1, #data do
      path[depth + 1] = i
      check(data[i], item, path, depth + 1)
      path[depth + 1] = nil
    end
  end
  meta.r = rule
end

-- Checks a new state against the compiled schema (nil: no schema).
function S.validate(state, schema)
  if schema == nil then return end
  check(state, schema, pathFrom("state"), 1)
end

-- A function that checks each new state (a frozen node) against `schema`, made once per
-- screen: a state already checked against it passes at once.
function S.validator(schema)
  if schema == nil then return function() end end
  return function(state)
    local meta = dgetmetatable(state)
    if meta ~= nil and meta.r == schema then return end
    check(state, schema, pathFrom("state"), 1)
  end
end

-- A plain copy of frozen data (for tools and tests in Lua).
local function thaw(value)
  local copy = {}
  for key, v in next, dataOf(value) do
    if type(v) == "table" then v = thaw(v) end
    copy[key] = v
  end
  return copy
end

function S.thaw(value)
  if type(value) ~= "table" then return value end
  return thaw(value)
end

return S
