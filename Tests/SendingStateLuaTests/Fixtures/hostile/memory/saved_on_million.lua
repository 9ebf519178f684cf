-- hostile: the `on` function kept and called a million times from a callback
-- trigger: tap b
-- expect: runtime
-- message: on can only be used while events are declared
-- limits: time=10000
local savedOn, savedView
return {
  state = { ok = 0 },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "status" },
      ui.button { id = "b", title = "b" },
      ui.button { id = "ok", title = "ok" },
      ui.button { id = "c", title = "c" },
    }
  end,
  configure = function(view, state)
    view.status.text = "ok " .. state.ok
  end,
  events = function(view, on)
    on(view.b, "touchUpInside", function(state, sender)
      for i = 1, 1000000 do savedOn(savedView.b, "touchUpInside", function() end) end --@
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
    savedOn, savedView = on, view
    on(view.c, "touchUpInside", function() return nil end)
  end,
  handle = function(action, store)
    if action.type == "ok" then
      store:update(function(s) s.ok = s.ok + 1 end)
      return
    end
  end,
}
