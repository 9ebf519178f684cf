-- A component with named states inside list rows: every row that the list builds (when the
-- screen opens, or as it scrolls) enters the component's named state.
local dot = {
  layout = function(ui) return ui.label { id = "mark" } end,
  configure = function() end,
  state_name = function(_, state) return state.lit and "lit" or "dark" end,
  states = {
    dark = { set = function(view) view.mark.text = "dark" end },
    lit = { set = function(view) view.mark.text = "lit" end },
  },
}

return {
  state = { items = { "a", "b", "c", "d", "e" }, lit = false },
  schema = { items = { "string" }, lit = "boolean" },
  components = { dot = dot },
  layout = function(ui)
    return ui.list { id = "list", visibleRows = 2,
      row = function(ui) return ui.stack { id = "cell", ui.label { id = "name" }, ui.dot { id = "dot" } } end,
      configure = function(row, item) row.name.text = item end,
    }
  end,
  configure = function(view, state) view.list.rows = state.items end,
  handle = function(action, store)
    if action.type == "light" then store:update(function(s) s.lit = true end) end
  end,
}
