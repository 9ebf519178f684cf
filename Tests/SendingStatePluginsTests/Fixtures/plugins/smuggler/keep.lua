-- Holds a store a middleware handed over, and uses it when the screen calls.
local M = {}
function M.later() M.saved:after(1, "tick") end  -- line 3
return M
