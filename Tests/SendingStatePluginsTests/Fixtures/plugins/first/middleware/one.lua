-- Appends "one" to state.trail, and to the action's own trail.
return function(action, store)
  store:update(function(s) s.trail[#s.trail + 1] = "one" end)
  return { type = action.type, via = (action.via or "") .. "one>" }
end
