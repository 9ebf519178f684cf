-- Sandbox rule: collectgarbage allows "count" only.
local kb = collectgarbage("count")
assert(type(kb) == "number")
collectgarbage("collect")
