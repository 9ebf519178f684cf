-- A screen whose handler starts a timer effect.
return {
  state = { ticks = 0 },
  layout = function(ui) return ui.stack { id = "root", ui.button { id = "start" }, ui.label { id = "ticks" } } end,
  configure = function(view, state) view.ticks.text = tostring(state.ticks) end,
  events = function(view, on) on(view.start, "touchUpInside", function() return "start" end) end,
  handle = function(action, store)
    if action.type == "start" then
      store:after(0.01, "tick")
    elseif action.type == "tick" then
      store:update(function(s) s.ticks = s.ticks + 1 end)
    end
  end,
}
