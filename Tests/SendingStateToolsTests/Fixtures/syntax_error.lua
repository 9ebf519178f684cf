-- Does not compile (line 2).
local = 1
