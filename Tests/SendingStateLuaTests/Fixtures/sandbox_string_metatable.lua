-- Sandbox rule: the string metatable is hidden; string methods cannot be replaced.
assert(getmetatable("") == false, "string metatable must be hidden")
string.upper = function() return "pwned" end    -- changes this script's copy only
return ("abc"):upper(), string.upper("x")
