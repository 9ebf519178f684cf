-- A layout that builds a label before the sections (whose units attach while the label waits).
return {
  state = {},
  units = { note = { layout = function(ui) return ui.label { id = "text", text = "unit" } end } },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "before", text = "first" },
      ui.sections { id = "feed" },
      ui.label { id = "after", text = "last" },
    }
  end,
  configure = function(view, state) view.before.text = "still here" end,
}
