-- hostile: a handler that starts a timer, then fails (the timer must not start)
-- trigger: tap b
-- expect: runtime
-- message: after the timer
return {
  state = { ok = 0, ticks = 0 },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok .. " ticks " .. state.ticks end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "attack" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    if action.type == "tick" then store:update(function(s) s.ticks = s.ticks + 1 end) return end
    store:after(0, "tick")
    error("after the timer") --@
  end,
}
