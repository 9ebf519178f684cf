-- hostile: a callback that returns a thousand actions at once
-- trigger: tap b
-- expect: budget exceeded
-- message: more than 200 actions in one event
return {
  state = { ok = 0 },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "status" },
      ui.button { id = "b", title = "b" },
      ui.button { id = "ok", title = "ok" },
    }
  end,
  configure = function(view, state)
    view.status.text = "ok " .. state.ok
  end,
  events = function(view, on)
    on(view.b, "touchUpInside", function(state, sender) --@
      local list = {}
      for i = 1, 1000 do list[i] = "go" end
      return list
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then
      store:update(function(s) s.ok = s.ok + 1 end)
      return
    end
  end,
}
