-- Tries to escape the budget inside a coroutine, and to swallow the error with pcall.
local co = coroutine.wrap(function()
  while true do
    pcall(function() while true do end end)
  end
end)
co()
