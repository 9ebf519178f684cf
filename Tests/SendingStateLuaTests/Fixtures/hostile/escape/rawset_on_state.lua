-- hostile: rawset on the read-only state: later callbacks read the forged value
-- trigger: tap b; tap c
-- expect: contained
-- state: {"ok":0}
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
      rawset(state, "ok", 777)
      return nil
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
    on(view.c, "touchUpInside", function(state)
      if state.ok ~= 0 then print("ESCAPED: a callback reads state.ok = " .. tostring(state.ok) .. " (committed: 0)") end
      return nil
    end)
  end,
  handle = function(action, store)
    if action.type == "ok" then
      store:update(function(s) s.ok = s.ok + 1 end)
      return
    end
  end,
}
