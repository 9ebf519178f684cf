-- Indexes a nil field on line 4.
local state = { title = "Tea" }
local function configure(s)
  return s.details.x
end
return configure(state)
