-- hostile: an event spec whose metatable's __readonly points back at itself (the host follows it for ever)
-- trigger: load
-- expect: runtime
-- message: an event table needs gesture = <name> or control = <name>
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
      return "go"
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
    local spec = {}
    setmetatable(spec, { __readonly = spec })
    on(view.b, spec, function() return "go" end) --@
  end,
  handle = function(action, store)
    if action.type == "ok" then
      store:update(function(s) s.ok = s.ok + 1 end)
      return
    end
  end,
}
