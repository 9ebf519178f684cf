-- A screen with effects: `start` schedules one tick, `loop` re-arms a timer for ever.
return {
  state = { ticks = 0 },
  schema = { ticks = "integer" },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.button { id = "start", title = "Start" },
      ui.button { id = "loop", title = "Loop" },
      ui.label { id = "ticks" },
    }
  end,
  configure = function(view, state) view.ticks.text = tostring(state.ticks) end,
  events = function(view, on)
    on(view.start, "touchUpInside", function() return "start" end)
    on(view.loop, "touchUpInside", function() return "loop" end)
  end,
  handle = function(action, store)
    if action.type == "start" then
      store:after(0.01, "tick")
    elseif action.type == "loop" then
      store:after(0.05, "loop")
    elseif action.type == "tick" then
      store:update(function(s) s.ticks = s.ticks + 1 end)
    end
  end,
}
