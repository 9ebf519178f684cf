-- Stamps "stamp" actions with the time (needs the clock capability, which the plugin lacks).
return function(action, store)
  if action.type == "stamp" then
    store:update(function(s) s.stamped = os.time() end)  -- line 4
  end
  return action
end
