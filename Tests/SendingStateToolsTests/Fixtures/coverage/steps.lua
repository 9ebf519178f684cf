-- A module of the screen: one branch never runs.
local M = {}

function M.after(count, by)
  if by > 0 then
    return count + by
  end
  return count
end

return M
