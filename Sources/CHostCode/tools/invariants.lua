-- The invariants of a spec file for `sendingstate explore --spec FILE` and `run --spec FILE`
-- (see Invariants.swift). Runs sandboxed, in a runtime of its own (not the screen's). The spec's
-- top level runs once in an environment of its own, with busted's blocks as no-ops (the host
-- registers them), so what it declares with ss.invariant([name,] fn) at its top level is
-- collected; its tests do not run.
-- luacheck: std lua54, max line length 160
local property = ...   -- property(id, name): a view's property on the screen being checked

-- (Captured now: the spec runs in another environment, but nothing it changes reaches these.)
local pcall, error, tostring, type, setmetatable = pcall, error, tostring, type, setmetatable
local find, gsub = string.find, string.gsub

-- The most invariants one spec declares (each runs after every event).
local limit = 64

local found = {}
local sealed = false   -- once the spec's top level ran: no more declarations

-- "file:line" `level` calls up (error's levels: 1 is where itself, 2 its caller, …).
local function where(level)
  local _, place = pcall(error, "", level + 1)
  return (gsub(tostring(place), ":%s*$", ""))
end

local module = {}

--- Declares a check that must hold after every event: fn(state, view) returns true (a false
--- or nil result, or an error, breaks it).
function module.invariant(name, fn)
  if fn == nil and type(name) == "function" then name, fn = nil, name end
  if type(fn) ~= "function" or (name ~= nil and type(name) ~= "string") then
    error("ss.invariant([name,] fn): fn must be a function(state, view) that returns true while the screen is right", 2)
  end
  -- (A name is printed on a line of its own: no control character may end or forge it.)
  if name ~= nil and (#name == 0 or #name > 200 or find(name, "[%c\127]")) then
    error("ss.invariant(name, fn): a name is 1 to 200 characters without control characters (line breaks, escapes)", 2)
  end
  if sealed then
    error("ss.invariant: declare invariants at the spec's top level, not while one is checked", 2)
  end
  if #found >= limit then
    error("ss.invariant: at most " .. limit .. " invariants in one spec (each runs after every event)", 2)
  end
  local place = where(3)
  found[#found + 1] = { name = name and (name .. " (" .. place .. ")") or place, fn = fn }
end

function module.open()
  error("ss.open cannot run while explore reads the spec's invariants: only its top level runs there, "
    .. "so open screens inside it(...) or before_each(...)", 2)
end

-- The view a check sees: view.<id>.<property>, read from the screen when asked, read-only.
local function readOnly() error("view is read-only in an invariant: it describes the screen as it is", 2) end
local view = setmetatable({}, {
  __index = function(_, id)
    return setmetatable({}, {
      __index = function(_, key) return property(id, key) end,
      __newindex = readOnly,
      __metatable = false,
    })
  end,
  __newindex = readOnly,
  __metatable = false,
})

local invariants = {}

--- How many invariants were found; no more can be declared after.
function invariants.seal()
  sealed = true
  return #found
end

--- The name of the index-th invariant.
function invariants.name(index)
  return found[index].name
end

--- The result of the index-th invariant for `state`.
function invariants.check(index, state)
  return found[index].fn(state, view)
end

return module, invariants
