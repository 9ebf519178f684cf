-- Records the order middleware saw each action in, and what reached handle.
return {
  state = { trail = {}, reached = "" },
  layout = function(ui) return ui.stack { ui.button { id = "go", title = "Go" } } end,
  configure = function() end,
  handle = function(action, store) store:update(function(s) s.reached = action.via end) end,
}
