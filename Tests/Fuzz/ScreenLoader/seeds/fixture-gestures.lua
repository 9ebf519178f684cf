-- Long presses on rows: `began` moves the pressed item to the top (a commit that re-binds rows);
-- `ended` must still reach the item the gesture began on. Callbacks get the phase.
return {
  state = { items = { { name = "a" }, { name = "b" }, { name = "c" }, { name = "d" } }, log = {} },
  schema = { items = { { name = "string" } }, log = { "string" } },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.list { id = "items", visibleRows = 4,
        row = function(ui) return ui.label { id = "name" } end,
        configure = function(row, item) row.name.text = item.name end,
        events = function(row, on)
          on(row.name, { gesture = "longPress", states = { "began", "ended" } }, function(item, sender, phase)
            return { type = "press", name = item.name, phase = phase }
          end)
        end,
      },
    }
  end,
  configure = function(view, state) view.items.rows = state.items end,
  handle = function(action, store)
    store:update(function(s)
      s.log[#s.log + 1] = action.phase .. " " .. action.name
      if action.phase == "began" then
        -- move the pressed item to the top: every row below it now shows another item
        local moved
        for i, item in ipairs(s.items) do
          if item.name == action.name then moved = table.remove(s.items, i) break end
        end
        table.insert(s.items, 1, moved)
      end
    end)
  end,
}
