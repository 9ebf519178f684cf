-- hostile: a row configure that loops once the list scrolls to item 40
-- trigger: scroll items 40
-- expect: budget exceeded
-- limits: time=none
local items = {}
for i = 1, 60 do items[i] = { i = i } end
return {
  state = { ok = 0, items = items },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "status" },
      ui.button { id = "b", title = "b" },
      ui.button { id = "ok", title = "ok" },
      ui.list { id = "items", visibleRows = 3,
        row = function(ui) return ui.label { id = "n" } end,
        configure = function(row, item)
          row.n.text = tostring(item.i)
          if item.i == 40 then while true do end end --@
        end,
      },
    }
  end,
  configure = function(view, state)
    view.status.text = "ok " .. state.ok
    view.items.rows = state.items
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
  end,
}
