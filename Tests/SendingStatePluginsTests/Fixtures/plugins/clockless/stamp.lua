-- require "clockless.stamp": the time of day, if the plugin may read the clock.
local clock = require "clock"
local M = {}
function M.now() local text = os.date("%H:%M"); return text end  -- line 4 (not a tail call: Lua drops those frames)
function M.cpu() return os.clock() end
function M.viaModule() local now = clock.now(); return now end  -- line 6: the clock module will not launder it
-- Ways to hide who calls: through pcall, a coroutine, a chunk named like a host chunk.
function M.viaPcall() local ok, now = pcall(clock.now); assert(ok, now); return now end
function M.viaCoroutine() return coroutine.wrap(clock.since)(0) end
function M.viaLoad() return load("return require('clock').now()", "=x")() end
function M.viaSeed() return math.randomseed() end
-- The screen's own files run with the screen's rights: a plugin may not require them.
function M.viaScreenFile() return require("screen_helper").now() end
return M
