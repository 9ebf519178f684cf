-- The event spec given to `on` is read by the host; its metatable's __readonly points at itself.
local spec = {}
setmetatable(spec, { __readonly = spec })
return {
  state = {},
  layout = function(ui) return ui.button { id = "b" } end,
  configure = function(view, state) end,
  events = function(view, on) on(view.b, spec, function() return "x" end) end,
}
