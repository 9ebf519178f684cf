-- Uses the test's Swift plugin "ticker": its module, its component, its middleware.
local ticker = require "ticker"
return {
  state = { n = ticker.twice(1) },
  layout = function(ui) return ui.stack { ui.tick { id = "t", scale = 3 } } end,
  configure = function() end,
}
