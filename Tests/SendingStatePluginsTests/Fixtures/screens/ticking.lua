-- Uses the test's Swift plugin "ticker": its module, its component, its middleware.
local ticker = require "ticker"
return {
  state = { n = ticker.twice(1), ticks = 0 },
  layout = function(ui) return ui.stack { ui.tick { id = "t", scale = 3 } } end,
  configure = function() end,
  handle = function(action, store)
    if action.type == "tick" then store:update(function(s) s.ticks = s.ticks + 1 end) end
  end,
}
