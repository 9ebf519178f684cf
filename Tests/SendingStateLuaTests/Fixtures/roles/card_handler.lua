-- Handles card actions by updating the Swift store; line numbers matter to tests.
return function(action, store)
  if action.type == "buy" then
    store:update(function(s) s.stock = s.stock - 1 end)
  elseif action.type == "favorite" then
    store:update(function(s) s.favorite = action.on end)
  elseif action.type == "corrupt" then
    store:update(function(s) s.stock = "lots" end)       -- line 8: not an Int
  elseif action.type == "twice" then
    store:dispatch({ type = "buy" })
    store:dispatch({ type = "buy" })
  end
end
