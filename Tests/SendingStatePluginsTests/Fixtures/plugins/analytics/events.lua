-- The analytics plugin's events module: names for what a screen did.
local M = {}
function M.name(action) return "screen." .. action.type end
return M
