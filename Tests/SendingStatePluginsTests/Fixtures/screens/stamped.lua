-- A screen that runs with the clockless plugin, and reads the clock itself.
local stamp = require "clockless.stamp"
local helper = require "screen_helper"  -- loaded by the screen: still not the plugin's to require
return {
  state = { stamped = 0, cpu = 0 },  -- and result
  layout = function(ui) return ui.stack { ui.button { id = "go", title = "Go" } } end,
  configure = function() end,
  handle = function(action, store)
    if action.type == "module" then stamp.now() end                          -- line 8
    if action.type == "cpu" then store:update(function(s) s.cpu = stamp.cpu() end) end
    if action.type == "own" then store:update(function(s) s.stamped = os.time() end) end  -- line 10
    if action.type == "via" then stamp.viaModule() end
    if stamp[action.type] then store:update(function(s) s.result = stamp[action.type]() end) end
    if action.type == "screenClock" then store:update(function(s) s.stamped = require("clock").now() end) end
  end,
}
