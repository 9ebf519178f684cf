-- configure names a view that does not exist (line 5).
return {
  state = {},
  layout = function(ui) return ui.stack { id = "root", ui.label { id = "title" } } end,
  configure = function(view, state) view.titel.text = "x" end,
}
