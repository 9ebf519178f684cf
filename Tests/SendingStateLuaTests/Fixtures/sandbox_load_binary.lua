-- Sandbox rule: load takes text only.
local chunk = load("return 1", "x", "b")
return chunk
