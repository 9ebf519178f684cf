return {
  state = {},
  layout = function(ui) return ui.stack { ui.lable { id = "title" } } end,
  configure = function() end,
}
