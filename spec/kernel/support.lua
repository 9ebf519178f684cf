-- What the kernel's specs share (not a spec itself: busted runs only *_spec.lua files): the
-- kernel's state module loaded in plain Lua with a stand-in for the host's `where` (no script
-- frame here, so messages start at the path), and the message of an expected error.
local root = ...

local support = {}

function support.loadState(settings)
  local chunk = assert(loadfile(root .. "/Sources/CHostCode/kernel/state.lua", "t"))
  settings = settings or {}
  return chunk({
    maxDepth = settings.maxDepth or 20,
    maxNodes = settings.maxNodes or 1000,
    where = function() return "" end,
  })
end

-- The message of the error `fn` raises; fails the test when it raises none. (A file loaded
-- like this one sees the plain globals, not luassert's `assert`.)
function support.failure(fn, ...)
  local ok, message = pcall(fn, ...)
  if ok then error("expected an error", 2) end
  return message
end

return support
