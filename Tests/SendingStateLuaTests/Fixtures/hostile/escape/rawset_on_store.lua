-- hostile: rawset on the store shadows a method (or state) for every later handler
-- trigger: tap b
-- expect: sandbox violation
-- message: rawset cannot write a read-only value
return {
  state = { ok = 0 },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "shadow" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    rawset(store, "update", function() print("ESCAPED: store:update was replaced") end) --@
  end,
}
