-- hostile: a list that shows a hundred thousand rows, five thousand of them filled by an event
-- trigger: tap b
-- expect: too large
-- message: more than 2000 views
-- limits: time=10000
return {
  state = { ok = 0, rows = {} },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "status" },
      ui.button { id = "b", title = "b" },
      ui.button { id = "ok", title = "ok" },
      ui.list { id = "items", visibleRows = 100000,
        row = function(ui) return ui.label { id = "n" } end, --@
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
    store:update(function(s)
      for i = 1, 5000 do s.rows[i] = i end
    end)
  end,
}
