-- A screen whose handler never ends (the screen's own budget stops it).
return {
  state = { n = 0 },
  layout = function(ui) return ui.button { id = "spin" } end,
  configure = function() end,
  events = function(view, on) on(view.spin, "touchUpInside", function() return "spin" end) end,
  handle = function()
    while true do end
  end,
}
