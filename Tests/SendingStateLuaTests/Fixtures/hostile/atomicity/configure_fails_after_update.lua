-- hostile: an update that configure cannot show (configure fails on the new state)
-- trigger: tap b
-- expect: runtime
-- message: cannot show
return {
  state = { ok = 0, n = 0 },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state)
    view.status.text = "ok " .. state.ok
    if state.n > 0 then error("cannot show n") end --@
  end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "attack" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    store:update(function(s) s.n = 1 end)
  end,
}
