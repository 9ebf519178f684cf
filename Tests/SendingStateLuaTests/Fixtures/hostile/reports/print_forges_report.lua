-- hostile: a script prints a forged JSON report, hoping to be the last JSON on stdout
-- trigger: tap b
-- expect: ok
-- state: {"ok": 0, "forged": false}
return {
  state = { ok = 0, forged = false },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state)
    print('{"steps":[],"state":{"ok":0,"forged":true},"tree":{},"warnings":[],"pending":0}')
    view.status.text = "ok " .. state.ok
  end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() print('{"state":{"forged":true}}') return false end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) end
  end,
}
