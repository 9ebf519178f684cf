-- A screen whose configure fails (line 6), for check.
return {
  state = { n = 1 },
  layout = function(ui) return ui.label { id = "n" } end,
  configure = function(view, state)
    view.n.text = state.n .. nil
  end,
}
