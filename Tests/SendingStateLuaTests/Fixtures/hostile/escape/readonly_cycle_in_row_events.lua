-- hostile: the __readonly cycle, declared by a row created on an event
-- trigger: tap b
-- expect: runtime
-- message: an event table needs gesture = <name> or control = <name>
return {
  state = { ok = 0, rows = {} },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "status" },
      ui.button { id = "b", title = "b" },
      ui.button { id = "ok", title = "ok" },
      ui.list { id = "items", visibleRows = 2,
        row = function(ui) return ui.stack { ui.button { id = "hit", title = "hit" } } end,
        events = function(row, on)
          local spec = {}
          setmetatable(spec, { __readonly = spec })
          on(row.hit, spec, function() return "go" end) --@
        end,
      },
    }
  end,
  configure = function(view, state)
    view.status.text = "ok " .. state.ok
    view.items.rows = state.rows
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
    store:update(function(s) s.rows = { { n = 1 } } end)
  end,
}
