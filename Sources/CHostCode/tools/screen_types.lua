-- `sendingstate stubs`: walks a screen's layout with a stand-in `ui` that records each view's kind
-- and id, and builds each list's row once (the real host builds rows only for the items it shows).
-- Runs in the screen's own sandboxed runtime, after the real host opened the screen.
local layout = ...
local nodes = setmetatable({}, { __mode = "k" })
local ui
local function build(kind, spec)
  local node = { kind = kind, children = {} }
  if type(spec) == "table" then
    if type(spec.id) == "string" then node.id = spec.id end
    for _, child in ipairs(spec) do
      if nodes[child] then node.children[#node.children + 1] = nodes[child] end
    end
    if kind == "list" and type(spec.row) == "function" then node.row = nodes[spec.row(ui)] end
  end
  local proxy = {}
  nodes[proxy] = node
  return proxy
end
ui = setmetatable({}, { __index = function(_, kind) return function(spec) return build(kind, spec) end end })
return nodes[layout(ui)]
