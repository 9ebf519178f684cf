-- hostile: a hot reload while a timer is pending; its result reaches the new screen
-- setup: tap b
-- trigger: reload; settle
-- expect: ok
-- state: {"ok": 0, "ticks": 1}
return {
  state = { ok = 0, ticks = 0 },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok .. " ticks " .. state.ticks end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "start" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end)
    elseif action.type == "start" then store:after(0.05, "tick")
    elseif action.type == "tick" then store:update(function(s) s.ticks = s.ticks + 1 end) end
  end,
}
