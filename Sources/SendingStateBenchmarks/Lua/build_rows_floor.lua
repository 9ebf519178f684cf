-- B4's floor: building 10,000 rows in plain Lua.
return function(n)
  local built = 0
  for _ = 1, n do
    local fresh = {}
    for i = 1, 10000 do fresh[i] = { name = "new " .. i, done = false } end
    built = built + #fresh
  end
  return built
end
