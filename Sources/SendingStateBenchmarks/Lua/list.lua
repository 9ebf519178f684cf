-- B4: a list of `rows` items, 10 of them visible (the benchmark writes each case's count into
-- the line below).
local rows = 10000
local items = {}
for i = 1, rows do items[i] = { name = "item " .. i, done = false } end
return {
  state = { items = items },
  schema = { items = { { name = "string", done = "boolean" } } },
  layout = function(ui)
    return ui.list { id = "items", visibleRows = 10,
      row = function(ui) return ui.stack { ui.switch { id = "done" }, ui.label { id = "name" } } end,
      configure = function(row, item) row.done.isOn = item.done row.name.text = item.name end,
    }
  end,
  configure = function(view, state) view.items.rows = state.items end,
  handle = function(action, store)
    if action.type == "toggle" then
      store:update(function(s) s.items[action.at].done = not s.items[action.at].done end)
    else
      local fresh = {}
      for i = 1, rows do fresh[i] = { name = "new " .. i, done = false } end
      store:set({ items = fresh })
    end
  end,
}
