-- A screen whose events can each do nothing for another reason (explaining silence).
return {
  state = { count = 0, dark = false, items = { "a", "b" } },
  schema = { count = "integer", dark = "boolean", items = { "string" } },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.button { id = "plus", title = "+" },
      ui.button { id = "minus", title = "-" },
      ui.button { id = "bare", title = "no callbacks" },
      ui.button { id = "changes", title = "value only" },
      ui.button { id = "forgot", title = "returns nothing" },
      ui.button { id = "declines", title = "returns false" },
      ui.label { id = "card" },
      ui.stack { id = "panel", ui.button { id = "inner", title = "inside" } },
      ui.switch { id = "dark" },
      ui.textfield { id = "note" },
      ui.slider { id = "level", min = 0, max = 10 },
      ui.list { id = "items", visibleRows = 2,
        row = function(ui2)
          return ui2.stack { ui2.label { id = "tag" }, ui2.button { id = "done", title = "done" } }
        end,
        configure = function(row, item) row.tag.text = item end,
        events = function(row, on)
          on(row.done, "touchUpInside", function(item) return { type = "done", item = item } end)
        end,
      },
    }
  end,
  configure = function(view, state)
    view.minus.enabled = state.count > 0
    view.panel.hidden = true
    view.dark.isOn = state.dark
    view.items.rows = state.items
  end,
  events = function(view, on)
    on(view.plus, "touchUpInside", function() return "increment" end)
    on(view.minus, "touchUpInside", function() return "decrement" end)
    on(view.changes, "valueChanged", function() return "changed" end)
    on(view.forgot, "touchUpInside", function() end)
    on(view.declines, "touchUpInside", function() return false end)
    on(view.card, { gesture = "tap", taps = 2 }, function() return "reset" end)
    on(view.card, { gesture = "pan", states = { "ended" } }, function() return "moved" end)
    on(view.inner, "touchUpInside", function() return "inner" end)
    on(view.dark, "valueChanged", function(_, sender) return { type = "dark", on = sender.isOn } end)
    on(view.note, "editingChanged", function(_, sender) return { type = "note", text = sender.text } end)
    on(view.level, "valueChanged", function(_, sender) return { type = "level", value = sender.value } end)
  end,
  handle = function(action, store)
    if action.type == "increment" then store:update(function(s) s.count = s.count + 1 end)
    elseif action.type == "decrement" then store:update(function(s) s.count = s.count - 1 end)
    elseif action.type == "dark" then store:update(function(s) s.dark = action.on end)
    end
  end,
}
