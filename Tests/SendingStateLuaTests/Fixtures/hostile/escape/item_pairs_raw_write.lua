-- hostile: a row callback writes its item through pairs()' raw data
-- trigger: row items 1 tap hit
-- expect: contained
-- state: {"ok":0,"items":[{"name":"a"},{"name":"b"}]}
return {
  state = { ok = 0, items = { { name = "a" }, { name = "b" } } },
  schema = { ok = "integer", items = { { name = "string" } } },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "status" },
      ui.button { id = "b", title = "b" },
      ui.button { id = "ok", title = "ok" },
      ui.list { id = "items", visibleRows = 2,
        row = function(ui) return ui.stack { ui.label { id = "name" }, ui.button { id = "hit", title = "hit" } } end,
        configure = function(row, item) row.name.text = item.name end,
        events = function(row, on)
          on(row.hit, "touchUpInside", function(item)
            local _, raw = pairs(item)
            raw.name = "rewritten"
            return nil
          end)
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
