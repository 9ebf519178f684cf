-- Appends "two" to state.trail, and to the action's own trail.
return function(action, store)
  store:update(function(s) s.trail[#s.trail + 1] = "two" end)
  return { type = action.type, via = (action.via or "") .. "two>" }
end
