-- Sandbox rule: string.dump is not available, also not through string methods.
local f = function() end
return string.dump(f)
