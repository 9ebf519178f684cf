-- List rows with a component; the row configure fails on the item "bad". Adding it makes the
-- list build a second row (and its component) in an event that then fails.
local dot = { layout = function(ui) return ui.label { id = "mark" } end, configure = function() end }

return {
  state = { items = { "a" } },
  components = { dot = dot },
  layout = function(ui)
    return ui.list { id = "list", visibleRows = 3,
      row = function(ui) return ui.stack { id = "cell", ui.label { id = "name" }, ui.dot { id = "dot" } } end,
      configure = function(row, item)
        if item == "bad" then error("this row cannot be shown") end
        row.name.text = item
      end,
    }
  end,
  configure = function(view, state) view.list.rows = state.items end,
  handle = function(action, store)
    store:update(function(s) s.items[#s.items + 1] = action.item end)
  end,
}
