-- A transition whose done shows rows, one of which cannot be configured: the event that ends
-- the transition fails after done ran (while the list plans its rows).
return {
  state = { mode = "idle" },
  schema = { mode = "string" },
  layout = function(ui)
    return ui.list { id = "list", visibleRows = 3,
      row = function(ui) return ui.label { id = "name" } end,
      configure = function(row, item)
        if item == "bad" then error("this row cannot be shown") end
        row.name.text = item
      end,
    }
  end,
  configure = function() end,
  state_name = function(state) return state.mode end,
  states = {
    idle = {},
    showing = {
      done = function(view) view.list.rows = { "a", "bad" } end,
      transition = 0.5,
    },
  },
  handle = function(action, store) store:update(function(s) s.mode = action.mode end) end,
}
