-- Records every action in state.seen (a screen with a `seen` list), drops "secret" actions,
-- renames "legacy" to "go", and tries the effects its capabilities allow or forbid.
return function(action, store)
  if action.type == "secret" then return false end
  if action.type == "legacy" then return { type = "go" } end
  if action.type == "try-timer" then store:after(1, "tick") end
  if action.type == "try-fetch" then store:fetch(action.url, { ok = "ok", fail = "fail" }) end  -- line 7
  store:update(function(s) if s.seen then s.seen[#s.seen + 1] = action.type end end)
  if action.type == "clock" then store:update(function(s) s.clock = math.type(os.time()) end) end
  return action
end
