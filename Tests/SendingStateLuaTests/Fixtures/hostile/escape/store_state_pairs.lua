-- hostile: handle bypasses store:update and the schema by writing store.state's raw data
-- trigger: tap b
-- expect: contained
-- state: {"ok":0}
return {
  state = { ok = 0 },
  schema = { ok = "integer" },
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
  end,
  handle = function(action, store)
    if action.type == "ok" then
      store:update(function(s) s.ok = s.ok + 1 end)
      return
    end
    local _, raw = pairs(store.state)
    raw.ok = "five"
  end,
}
