-- A screen that uses the analytics plugin's module (run with --plugin …/analytics).
local events = require "analytics.events"
return {
  state = { last = "" },
  layout = function(ui) return ui.stack { ui.button { id = "go", title = "Go" }, ui.label { id = "last" } } end,
  configure = function(view, state) view.last.text = state.last end,
  events = function(view, on) on(view.go, "touchUpInside", function() return "go" end) end,
  handle = function(action, store) store:update(function(s) s.last = events.name(action) end) end,
}
