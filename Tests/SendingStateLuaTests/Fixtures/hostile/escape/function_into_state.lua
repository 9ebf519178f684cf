-- hostile: a frozen node carrying a raw function field is committed as state
-- trigger: tap b; tap c
-- expect: contained
-- state: {"ok":0,"inner":{"ok":0}}
-- roundtrip: no
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
      return "go"
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
    on(view.c, "touchUpInside", function(state)
      if state.inner and type(state.inner.smuggled) == "function" then print("ESCAPED: committed state holds a function") end
      return nil
    end)
  end,
  handle = function(action, store)
    if action.type == "ok" then
      store:update(function(s) s.ok = s.ok + 1 end)
      return
    end
    local node = store.state
    rawset(node, "smuggled", print)
    store:set({ ok = 0, inner = node })
  end,
}
