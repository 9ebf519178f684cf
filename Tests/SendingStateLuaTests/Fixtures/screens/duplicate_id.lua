return {
  state = {},
  layout = function(ui)
    return ui.stack {
      ui.label { id = "title" },
      ui.label { id = "title" },
    }
  end,
  configure = function() end,
}
