-- hostile: print as a fire hose: a megabyte per call, one VM instruction each
-- trigger: tap b
-- expect: too large
-- message: bytes printed in one event
-- limits: budget=none time=10000
-- output-limit: 2097152
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
    on(view.b, "touchUpInside", function(state, sender)
      local s = string.rep("x", 1 << 20)
      while true do print(s) end --@
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
