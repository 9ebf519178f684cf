-- hostile: a pattern bomb while the screen loads (and while `check` opens it)
-- trigger: load
-- expect: time limit exceeded
-- limits: budget=none
return {
  state = { ok = 0 },
  layout = function(ui)
    string.match(string.rep("x", 30), string.rep("x*", 30) .. "y") --@
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
    on(view.b, "touchUpInside", function(state, sender)
      return "go"
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
