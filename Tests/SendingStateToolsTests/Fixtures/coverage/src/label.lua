-- A module the spec requires (it runs in the spec's runtime).
local M = {}

function M.of(count)
  if count == 1 then
    return "one"
  end
  return tostring(count)
end

return M
