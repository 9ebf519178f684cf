-- Like reviews.lua, with its own review renderer (which wins over the plugin's).
return {
  state = { helpful = 0 },
  units = {
    review = {
      layout = function(ui) return ui.label { id = "mine" } end,
      configure = function(view, data) view.mine.text = "own: " .. data.author end,
    },
  },
  layout = function(ui) return ui.stack { ui.sections { id = "feed" } } end,
  configure = function() end,
}
