-- The invariants of a spec file for `sendingstate explore --spec FILE` and `run --spec FILE`
-- (see Invariants.swift). Runs sandboxed, in a runtime of its own (not the screen's). The spec's
-- top level runs once with busted's blocks as no-ops, so what it declares with
-- ss.invariant([name,] fn) at its top level is collected; its tests do not run.
-- luacheck: std lua54, max line length 160
local property = ...   -- property(id, name): a view's property on the screen being checked

local found = {}

-- "file:line" `level` calls up (error's levels: 1 is where itself, 2 its caller, …).
local function where(level)
  local _, place = pcall(error, "", level + 1)
  return (tostring(place):gsub(":%s*$", ""))
end

local module = {}

--- Declares a check that must hold after every step: fn(state, view) returns true (a false or
--- nil result, or an error, breaks it).
function module.invariant(name, fn)
  if fn == nil and type(name) == "function" then name, fn = nil, name end
  if type(fn) ~= "function" or (name ~= nil and type(name) ~= "string") then
    error("ss.invariant([name,] fn): fn must be a function(state, view) that returns true while the screen is right", 2)
  end
  local place = where(3)
  found[#found + 1] = { name = name and (name .. " (" .. place .. ")") or place, fn = fn }
end

function module.open()
  error("ss.open cannot run while explore reads the spec's invariants: only its top level runs there, "
    .. "so open screens inside it(...) or before_each(...)", 2)
end

-- busted's blocks and hooks: skipped (their bodies never run here).
local function skip() end
local blocks = {}
for _, name in ipairs({ "describe", "context", "insulate", "expose", "it", "spec", "test", "pending",
  "before_each", "after_each", "setup", "teardown", "lazy_setup", "lazy_teardown", "strict_setup",
  "strict_teardown", "finally", "randomize" }) do
  blocks[name] = skip
end

-- The spec's environment: the blocks, then this sandbox's globals (require finds the module).
local environment = setmetatable(blocks, { __index = _ENV })

-- The view a check sees: view.<id>.<property>, read from the screen when asked, read-only.
local function readOnly() error("view is read-only in an invariant: it describes the screen as it is", 2) end
local view = setmetatable({}, {
  __index = function(_, id)
    return setmetatable({}, {
      __index = function(_, key) return property(id, key) end,
      __newindex = readOnly,
    })
  end,
  __newindex = readOnly,
})

local invariants = {}

--- The names found so far, in order.
function invariants.names()
  local names = {}
  for index, invariant in ipairs(found) do names[index] = invariant.name end
  return names
end

--- The result of the index-th invariant for `state`.
function invariants.check(index, state)
  return found[index].fn(state, view)
end

return module, environment, invariants
