-- Requiring a module with a syntax error reports the module's file and line.
local broken = require("broken")
return broken
