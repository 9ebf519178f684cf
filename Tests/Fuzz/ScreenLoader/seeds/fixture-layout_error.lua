-- layout fails on line 5.
return {
  state = {},
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "a", txt = "typo" } }
  end,
  configure = function(view, state) end,
}
