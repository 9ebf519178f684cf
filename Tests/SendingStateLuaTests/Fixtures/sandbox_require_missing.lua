-- Sandbox rule: require finds Lua modules only under the script roots (no C modules).
local lfs = require("lfs")
return lfs
