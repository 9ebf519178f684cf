-- One view of every kind, each with its properties set in layout or configure.
return {
  state = {},
  layout = function(ui)
    return ui.stack { id = "root", axis = "horizontal", spacing = 2,
      ui.view { id = "plain", hidden = true },
      ui.label { id = "label", text = "hi", alpha = 0.5 },
      ui.image { id = "image", image = "star" },
      ui.button { id = "button", title = "Go", enabled = false, selected = true },
      ui.switch { id = "switch", isOn = true },
      ui.slider { id = "slider", min = 1, max = 5, value = 3 },
      ui.stepper { id = "stepper", min = 0, max = 4, step = 2, value = 2 },
      ui.segmented { id = "segmented", segments = { "a", "b" }, selectedIndex = 2 },
      ui.textfield { id = "textfield", placeholder = "type" },
      ui.textfield { id = "password", secure = true },
      ui.list { id = "list", row = function(ui) return ui.label {} end },
    }
  end,
  configure = function(view, state)
    view.textfield.text = "x"
  end,
}
