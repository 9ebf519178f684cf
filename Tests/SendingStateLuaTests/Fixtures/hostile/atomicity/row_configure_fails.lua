-- hostile: a new row whose configure fails, after the list's rows were set
-- trigger: tap b
-- expect: runtime
-- message: bad row
return {
  state = { ok = 0, items = { "a", "b" } },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" },
      ui.list { id = "items", visibleRows = 5,
        row = function(ui) return ui.label { id = "name" } end,
        configure = function(row, item)
          if item == "bad" then error("bad row") end --@
          row.name.text = item
        end,
      },
    }
  end,
  configure = function(view, state)
    view.status.text = "ok " .. state.ok
    view.items.rows = state.items
  end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "attack" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    store:update(function(s) s.items[3] = "bad" end)
  end,
}
