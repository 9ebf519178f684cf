-- Never ends on its own: the instruction budget stops it.
local n = 0
while true do
  n = n + 1
end
