-- configure fails on line 6 from the start.
return {
  state = { title = "x" },
  layout = function(ui) return ui.label { id = "title" } end,
  configure = function(view, state)
    view.title.text = state.details.name
  end,
}
