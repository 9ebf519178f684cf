-- A label has no control events (line 6), and 'tapp' is no event.
return {
  state = {},
  layout = function(ui) return ui.stack { id = "root", ui.label { id = "l" } } end,
  configure = function() end,
  events = function(view, on) on(view.l, "touchUpInside", function() end) end,
}
