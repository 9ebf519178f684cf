-- Runs before `handle` for every action: counts it in state.analytics (when the screen keeps
-- one) and passes it on unchanged. Actions whose type starts with "_" are private: dropped.
return function(action, store)
  if action.type:sub(1, 1) == "_" then return false end
  if type(store.state.analytics) == "table" then
    store:update(function(s) s.analytics[action.type] = (s.analytics[action.type] or 0) + 1 end)
  end
  return action
end
