-- Uses ui.stars without the max it needs: the plugin's configure fails.
return {
  state = { rating = 1 },
  layout = function(ui) return ui.stack { ui.stars { id = "bad" } } end,
  configure = function() end,
}
