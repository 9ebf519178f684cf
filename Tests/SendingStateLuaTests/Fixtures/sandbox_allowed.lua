-- Everything the sandbox allows, used once.
local parts = {}
parts[#parts + 1] = string.format("%d-%s", 7, ("ab"):upper())
parts[#parts + 1] = table.concat({ "x", "y" }, ",")
parts[#parts + 1] = tostring(math.max(3, 9))
parts[#parts + 1] = tostring(utf8.len("héllo"))
local co = coroutine.create(function(a) local b = coroutine.yield(a + 1); return b * 2 end)
local _, first = coroutine.resume(co, 1)
local _, second = coroutine.resume(co, 5)
parts[#parts + 1] = first .. "/" .. second
parts[#parts + 1] = type(os.clock()) .. type(os.time()) .. type(os.date("%Y"))
local gen = coroutine.wrap(function() coroutine.yield("w") end)
parts[#parts + 1] = gen()
local chunk = load("return 40 + 2")
parts[#parts + 1] = tostring(chunk())
parts[#parts + 1] = require("helpers.greet")("lua")
print("printed", 1, nil)
return table.concat(parts, " ")
