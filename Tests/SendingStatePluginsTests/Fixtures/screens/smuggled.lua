-- Calls the smuggler's module from handle, which has the screen's (unrestricted) rights.
local keep = require "smuggler.keep"
return {
  state = {},
  layout = function(ui) return ui.stack { ui.label { id = "l" } } end,
  configure = function() end,
  handle = function(action)
    if action.type == "go" then keep.later() end
  end,
}
