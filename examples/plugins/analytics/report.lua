-- require "analytics.report": the counts of state.analytics as one line of text.
local M = {}

--- "increment 2, reset 1" (by type, sorted), or "nothing yet".
function M.line(counts)
  local types = {}
  for name in pairs(counts or {}) do types[#types + 1] = name end
  table.sort(types)
  if #types == 0 then return "nothing yet" end
  local parts = {}
  for i, name in ipairs(types) do parts[i] = name .. " " .. counts[name] end
  return table.concat(parts, ", ")
end

return M
