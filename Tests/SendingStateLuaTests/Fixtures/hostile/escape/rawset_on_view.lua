-- hostile: rawset on a view shadows a property: reads see a value the view never had
-- trigger: tap b
-- expect: sandbox violation
-- message: rawset cannot write a read-only value
return {
  state = { ok = 0, forge = false },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state)
    if state.forge then rawset(view.status, "text", "forged") end --@
    view.status.text = "ok " .. state.ok
  end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "forge" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "forge" then store:update(function(s) s.forge = true end) return end
    store:update(function(s) s.ok = s.ok + 1 end)
  end,
}
