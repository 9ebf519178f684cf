local keep = require "smuggler.keep"
return function(action, store)
  keep.saved = store
  if action.type == "pause" then
    -- Paused inside store:update, resumed later by the screen: it would finish under its rights.
    keep.paused = coroutine.wrap(function() store:update(function() coroutine.yield() end) end)  -- line 6
    keep.paused()
  end
  return action
end
