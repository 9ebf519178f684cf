-- A screen whose actions the analytics middleware sees first.
return {
  state = { seen = {}, handled = {} },
  layout = function(ui) return ui.stack { ui.button { id = "go", title = "Go" } } end,
  configure = function() end,
  events = function(view, on) on(view.go, "touchUpInside", function() return "go" end) end,
  handle = function(action, store)
    store:update(function(s) s.handled[#s.handled + 1] = action.type end)
  end,
}
