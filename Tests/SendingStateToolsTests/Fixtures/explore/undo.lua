-- A counter with undo and a planted bug for `sendingstate explore` to find: reset keeps the
-- change to undo with the wrong sign, so "plus, reset, undo" takes the count below zero (the
-- shortest failing list: three events). The note and the switch are noise it must shrink away.
return {
  state = { count = 0, last = 0, loud = false, note = "" },
  schema = { count = "integer", last = "integer", loud = "boolean", note = "string" },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "count" },
      ui.button { id = "plus", title = "+" },
      ui.button { id = "minus", title = "-" },
      ui.button { id = "reset", title = "reset" },
      ui.button { id = "undo", title = "undo" },
      ui.switch { id = "loud" },
      ui.textfield { id = "note" },
    }
  end,
  configure = function(view, state)
    view.count.text = tostring(state.count)
    view.minus.enabled = state.count > 0
    view.undo.enabled = state.last ~= 0
    view.loud.isOn = state.loud
  end,
  events = function(view, on)
    on(view.plus, "touchUpInside", function() return "plus" end)
    on(view.minus, "touchUpInside", function() return "minus" end)
    on(view.reset, "touchUpInside", function() return "reset" end)
    on(view.undo, "touchUpInside", function() return "undo" end)
    on(view.loud, "valueChanged", function(_, sender) return { type = "loud", on = sender.isOn } end)
    on(view.note, "editingChanged", function(_, sender) return { type = "note", text = sender.text } end)
  end,
  handle = function(action, store)
    store:update(function(s)
      if action.type == "plus" then s.count, s.last = s.count + 1, 1
      elseif action.type == "minus" then s.count, s.last = s.count - 1, -1
      elseif action.type == "reset" then s.count, s.last = 0, s.count  -- the bug: undo subtracts last
      elseif action.type == "undo" then s.count, s.last = s.count - s.last, 0
      elseif action.type == "loud" then s.loud = action.on
      elseif action.type == "note" then s.note = action.text
      end
    end)
  end,
}
