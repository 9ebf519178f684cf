-- hostile: a script wipes its own globals; the host's code must not depend on them
-- trigger: tap b
-- expect: contained
-- state: {"ok":0}
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
      pairs, ipairs, next, type, tostring, error, setmetatable = nil, nil, nil, nil, nil, nil, nil
      string.format, table.concat, table.sort = nil, nil, nil
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
