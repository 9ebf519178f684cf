-- hostile: an action that dispatches two more; the third fails after two committed-looking updates
-- trigger: tap b
-- expect: runtime
-- message: third fails
return {
  state = { ok = 0, n = 0 },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok .. " n " .. state.n end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "first" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    if action.type == "first" then
      store:update(function(s) s.n = s.n + 1 end)
      store:dispatch("second")
      store:dispatch("third")
    elseif action.type == "second" then
      store:update(function(s) s.n = s.n + 10 end)
    else
      error("the third fails") --@
    end
  end,
}
