-- Sandbox rule: require cannot leave the script roots.
local secret = require("..secret")
return secret
