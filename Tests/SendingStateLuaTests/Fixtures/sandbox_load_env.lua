-- Sandbox rule: load may not choose its own environment.
local chunk = load("return 1", "x", "t", {})
return chunk
