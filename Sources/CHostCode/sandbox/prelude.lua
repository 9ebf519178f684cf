-- The sandbox's environment factory (see LuaSandbox.swift): called with the real globals, the
-- host's globals, the module cache and the host's primitives; returns `newenv()`.
-- luacheck: std lua54, max line length 160
local G, hostGlobals, loaded, prims = ...
local violation = prims.marker
local pairs, select, setmetatable, tostring, type, error = G.pairs, G.select, G.setmetatable, G.tostring, G.type, G.error
local concat, pack, unpack, sfind = G.table.concat, G.table.pack, G.table.unpack, G.string.find
local realload, gcollect = G.load, G.collectgarbage
local write, find, bounded = prims.write, prims.find, prims.bounded
local cocreate, coresume, charge = bounded["coroutine.create"], bounded["coroutine.resume"], bounded.charge
local coclose = bounded["coroutine.close"]

local function copy(source, skip)
  local result = {}
  for key, value in pairs(source) do
    if not (skip and skip[key]) then result[key] = value end
  end
  return result
end

local function guarded(t, names, prefix)
  return setmetatable(t, {
    __index = function(_, key)
      if names[key] then
        error(violation .. prefix .. tostring(key) .. " is not available to scripts", 2)
      end
    end,
    __metatable = false,
  })
end

local baseNames = { "assert", "error", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget",
  "rawlen", "rawset", "select", "setmetatable", "getmetatable", "tonumber", "tostring", "type", "xpcall" }
local forbiddenGlobals = { io = true, debug = true, dofile = true, loadfile = true, package = true,
  loadstring = true, module = true, setfenv = true, getfenv = true, newproxy = true }
local forbiddenOs = { execute = true, exit = true, getenv = true, remove = true, rename = true,
  tmpname = true, setlocale = true }
local forbiddenString = { dump = true }

-- A copy of the library `name` with its bounded functions ("string.rep"…) in place.
local function library(name, skip)
  local result = copy(G[name], skip)
  local prefix = name .. "."
  for key, value in pairs(bounded) do
    if key:sub(1, #prefix) == prefix then result[key:sub(#prefix + 1)] = value end
  end
  return result
end
local stringLib, tableLib, utf8Lib = library("string", forbiddenString), library("table"), library("utf8")

-- Strings share one metatable: give it the bounded methods without dump, and hide it.
local stringMeta = G.getmetatable("")
stringMeta.__index = copy(stringLib)
stringMeta.__metatable = false

-- Read-only objects (frozen state, views: their metatable names their data in `__readonly`)
-- keep that data to themselves: `pairs` does not hand it out as the iterator's state (a
-- script could write it, around the schema, the commit and every check), and `rawset` does
-- not write around their `__newindex` (a forged field would shadow the committed value).
local dgetmetatable, realrawset, rawget, realpairs = G.debug.getmetatable, G.rawset, G.rawget, G.pairs
local function isReadOnly(value)
  local meta = dgetmetatable(value)
  return type(meta) == "table" and rawget(meta, "__readonly") ~= nil
end
local function safePairs(t)
  local step, data, first = realpairs(t)
  if G.rawequal(data, t) or not isReadOnly(t) then return step, data, first end
  return function(_, key) return step(data, key) end, t, first
end
local function safeRawset(t, key, value)
  if isReadOnly(t) then
    error(violation .. "rawset cannot write a read-only value (state and views change through the store)", 2)
  end
  return realrawset(t, key, value)
end

-- coroutine.wrap: like Lua's, but an error that already says where it happened (inside
-- the coroutine) is not prefixed with the caller's position a second time.
local function wrap(f)
  local co = cocreate(f)
  return function(...)
    local results = pack(coresume(co, ...))
    if results[1] then return unpack(results, 2, results.n) end
    local message = results[2]
    if type(message) == "string" and sfind(message, "^[^\n]-:%d+: ") then error(message, 0) end
    error(message, 2)
  end
end

-- Rights (see LuaAuthority.c): `gate(impl)` makes a C function that calls
-- impl(owner, level, ...), where owner is who asks — the owner of the nearest script frame
-- (a string), true for the host itself, false when it cannot be told — and `level` that
-- frame for getinfo from inside impl. What each owner may do is in prims.rights.
local gate, rights, getinfo, setOwner = prims.gate, prims.rights, G.debug.getinfo, prims.setOwner
local function may(owner, right)
  if owner == true then return true end
  local granted = owner and rights[owner]
  return granted and granted[right] == true or false
end
-- "file:line: " of the asker's frame: `level` as gate passed it to the impl that calls this
-- (`depth` more frames between them: 0 when the impl calls it itself).
local function askerAt(level, depth)
  local info = level > 0 and getinfo(level + 1 + (depth or 0), "Sl")
  if info and info.currentline > 0 then return info.short_src .. ":" .. info.currentline .. ": " end
  return ""
end
local function whoIs(owner)
  return owner or "code whose owner cannot be told (started on a host function, reached through a tail call "
    .. "into the host, or called as a metamethod or a for loop's iterator)"
end
local function denyClock(owner, level, name)
  error(askerAt(level, 1) .. whoIs(owner) .. " may not read the wall clock (" .. name
    .. "): it does not have the 'clock' capability", 0)
end

-- os.time and os.date: the wall clock, for code whose owner has the clock right.
local realTime, realDate = G.os.time, G.os.date
local gatedTime = gate(function(owner, level, ...)
  if not may(owner, "clock") then denyClock(owner, level, "os.time") end
  return realTime(...)
end)
local gatedDate = gate(function(owner, level, ...)
  if not may(owner, "clock") then denyClock(owner, level, "os.date") end
  return realDate(...)
end)

-- Modules whose functions read the wall clock (`require "clock"`): one read-only view of
-- each, whose clock-reading functions are gates (the right is the asker's, whoever
-- handed the module over).
local clockGated = prims.clockGated
local views = {}
local function gatedView(name, module)
  local view = views[name]
  if view ~= nil then return view end
  local gated = clockGated[name]
  local wrapped = {}
  view = setmetatable({}, {
    __index = function(_, field)
      local value = module[field]
      if gated[field] and type(value) == "function" then
        local fn = wrapped[field]
        if fn == nil then
          local label = name .. "." .. field
          fn = gate(function(owner, level, ...)
            if not may(owner, "clock") then denyClock(owner, level, label) end
            return value(...)
          end)
          wrapped[field] = fn
        end
        return fn
      end
      return value
    end,
    __newindex = function() error("module '" .. name .. "' is read-only (it cannot change for other scripts)", 2) end,
    __readonly = {},
    __metatable = false,
  })
  views[name] = view
  return view
end

-- The generator starts from host entropy, never from the time (Lua seeds it with time(NULL)
-- when the state opens, and a script that reads four numbers can step back to the seed).
local realRandomseed, realRandom = G.math.randomseed, G.math.random
realRandomseed(prims.seed1, prims.seed2)
-- What code without the screen's rights (plugins') may require: host modules and the
-- modules plugins name (not the screen's own files, nor modules the screen has loaded:
-- they run with the screen's rights).
local requirable = prims.requirable

-- load(chunk, name): text only, in the calling file's environment; the chunk is named
-- after the place that loaded it — `file.lua:12 (load "name")` — and belongs to the owner of
-- that code, so no name a script chooses can claim another file, or the host's own code.
local function loadName(level, name)
  local info = level > 0 and getinfo(level + 1, "Sl")
  local place = info and (info.source:sub(1, 1) == "@" and info.source:sub(2) or info.short_src) or "?"
  local line = info and info.currentline or 0
  local shown = ""
  if type(name) == "string" then
    -- (kept printable and short: it is part of every position in the chunk)
    shown = " " .. ("%q"):format(name:sub(1, 40)):gsub("[%c\128-\255]", "?")
  end
  return "@" .. place .. ":" .. line .. " (load" .. shown .. ")"
end

-- A fresh environment.
return function()
  local env = {}
  for i = 1, #baseNames do env[baseNames[i]] = G[baseNames[i]] end
  env._VERSION = G._VERSION
  env.setmetatable, env.xpcall = bounded.setmetatable, bounded.xpcall
  env.pairs, env.rawset = safePairs, safeRawset
  env.string = guarded(copy(stringLib), forbiddenString, "string.")
  env.table = copy(tableLib)
  env.math = copy(G.math)
  -- math.randomseed() would seed from the time and return the seed: it reseeds from the
  -- generator itself, and returns nothing.
  env.math.randomseed = function(x, y)
    if x == nil then
      realRandomseed(realRandom(0), realRandom(0))  -- (its results would tell the seed)
      return
    end
    for position, value in ipairs({ x, y }) do
      if G.math.type(value) == nil then
        error("bad argument #" .. position .. " to 'randomseed' (number expected, got " .. type(value) .. ")", 2)
      elseif G.math.tointeger(value) == nil then
        error("bad argument #" .. position .. " to 'randomseed' (number has no integer representation)", 2)
      end
    end
    realRandomseed(x, y)
  end
  env.utf8 = copy(utf8Lib)
  local co = copy(G.coroutine)
  co.create, co.resume, co.wrap, co.close = cocreate, coresume, wrap, coclose
  env.coroutine = co
  env.os = guarded({ clock = G.os.clock, time = gatedTime, date = gatedDate }, forbiddenOs, "os.")
  env.print = function(...)
    local n = select("#", ...)
    local parts = { ... }
    for i = 1, n do parts[i] = tostring(parts[i]) end
    write(concat(parts, "\t", 1, n))
  end
  env.collectgarbage = function(option)
    if option == nil or option == "count" then return gcollect("count") end
    error(violation .. "collectgarbage('" .. tostring(option) .. "') is not available to scripts (only 'count' is)", 2)
  end
  env.load = gate(function(owner, level, chunk, name, mode, custom)
    if custom ~= nil then
      error(askerAt(level) .. violation .. "load with a caller-chosen environment is not available to scripts", 0)
    end
    if mode ~= nil and mode ~= "t" then
      error(askerAt(level) .. violation .. "binary chunks are not available to scripts (load mode must be 't')", 0)
    end
    if type(chunk) ~= "string" and type(chunk) ~= "function" then
      error(askerAt(level) .. "bad argument #1 to 'load' (string or function expected, got " .. type(chunk) .. ")", 0)
    end
    -- Compiling is work done in C: charge the text read (a unit per 32 bytes).
    if type(chunk) == "string" then
      charge(#chunk // 32 + 1)
    elseif type(chunk) == "function" then
      local reader = chunk
      chunk = function()
        local piece = reader()
        charge(type(piece) == "string" and #piece // 32 + 1 or 1)
        return piece
      end
    end
    local source = loadName(level, name)
    setOwner(source, owner == true and "the host" or owner)
    return realload(chunk, source, "t", env)
  end)
  env.require = gate(function(owner, level, name)
    if type(name) ~= "string" then
      error(askerAt(level) .. "bad argument #1 to 'require' (string expected, got " .. type(name) .. ")", 0)
    end
    if not may(owner, "screenFiles") and not requirable[name] then
      error(askerAt(level) .. violation .. "a plugin's code may require host modules and the modules plugins name, not '"
        .. name .. "' (the screen's files run with the screen's rights)", 0)
    end
    local cached = loaded[name]
    if cached ~= nil then
      if clockGated[name] then return gatedView(name, cached) end
      return cached
    end
    local chunk, where, fault = find(name)
    if not chunk then error((fault == 0 and "" or askerAt(level)) .. where, 0) end
    local result = chunk(name, where)
    if result == nil then result = true end
    loaded[name] = result
    return result
  end)
  for key, value in pairs(hostGlobals) do env[key] = value end
  env._G = env
  return setmetatable(env, {
    __index = function(_, key)
      if forbiddenGlobals[key] then
        error(violation .. "'" .. tostring(key) .. "' is not available to scripts", 2)
      end
    end,
    __metatable = false,
  })
end
