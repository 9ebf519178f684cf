-- A list whose row configure fails for items without a name (line 11).
return {
  state = { items = { { name = "a" }, { name = "b" } } },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.list { id = "items",
        row = function(ui) return ui.label { id = "name" } end,
        configure = function(row, item)
          row.name.text = item.name
          if item.name == "bad" then
            error("cannot show " .. item.name)      -- line 11
          end
        end,
      },
      ui.button { id = "add" },
    }
  end,
  configure = function(view, state) view.items.rows = state.items end,
  events = function(view, on) on(view.add, "touchUpInside", function() return "add" end) end,
  handle = function(action, store)
    store:update(function(s) s.items[#s.items + 1] = { name = "bad" } end)
  end,
}
