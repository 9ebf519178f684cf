-- Calls a Swift function that fails, 100,000 times, catching each error in Lua.
local failures = 0
local last
for i = 1, 100000 do
  local ok, message = pcall(function() local r = explode(i); return r end)
  if not ok then
    failures = failures + 1
    last = message
  end
end
return failures, last
