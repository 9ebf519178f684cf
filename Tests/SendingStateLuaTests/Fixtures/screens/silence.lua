-- A screen whose events can each do nothing for another reason (explaining silence).
return {
  state = { count = 0, dark = false },
  schema = { count = "integer", dark = "boolean" },
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
    }
  end,
  configure = function(view, state)
    view.minus.enabled = state.count > 0
    view.panel.hidden = true
    view.dark.isOn = state.dark
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
  end,
  handle = function(action, store)
    if action.type == "increment" then store:update(function(s) s.count = s.count + 1 end)
    elseif action.type == "decrement" then store:update(function(s) s.count = s.count - 1 end)
    elseif action.type == "dark" then store:update(function(s) s.dark = action.on end)
    end
  end,
}
