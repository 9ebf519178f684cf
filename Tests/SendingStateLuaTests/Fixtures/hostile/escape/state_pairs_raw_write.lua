-- hostile: pairs() on the read-only state hands out its raw data table; a callback writes it
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
      local _, raw = pairs(state)
      raw.ok = 999
      return nil
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
