-- A screen whose effect result fails in handle (line 11).
return {
  state = { n = 0 },
  layout = function(ui) return ui.button { id = "start" } end,
  configure = function() end,
  events = function(view, on) on(view.start, "touchUpInside", function() return "start" end) end,
  handle = function(action, store)
    if action.type == "start" then
      store:after(0.01, "tick")
    else
      error("the tick failed")
    end
  end,
}
