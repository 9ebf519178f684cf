-- A screen that prints while it loads.
print("from the screen")
return {
  state = {},
  layout = function(ui) return ui.label { id = "title" } end,
  configure = function() end,
}
