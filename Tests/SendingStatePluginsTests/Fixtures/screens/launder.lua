-- A screen with every right (it declares nothing) that hands its store, os, clock module and
-- require to a plugin's helper that has no capabilities.
local helper = require "launder.helper"
return {
  state = { got = 0, result = false },
  layout = function(ui) return ui.stack { ui.button { id = "go", title = "Go" } } end,
  configure = function() end,
  handle = function(action, store)
    local url = "http://127.0.0.1:9/x"
    if action.type == "got" or action.type == "failed" then
      store:update(function(s) s.got = s.got + 1 end)
    elseif action.type == "own" then
      store:fetch(url, { ok = "got", fail = "failed" })
    elseif action.type == "callBack" then
      helper.callBack(function() store:fetch(url, { ok = "got", fail = "failed" }) end)
    elseif action.type == "time" or action.type == "date" then
      local value = helper[action.type](os)
      store:update(function(s) s.result = value end)
    elseif action.type == "clockModule" then
      local value = helper.clockModule(require "clock")
      store:update(function(s) s.result = value end)
    elseif action.type == "screenRequire" then
      local value = helper.screenRequire(require)
      store:update(function(s) s.result = value end)
    elseif action.type == "tailPcall" then
      local ok, err = helper.tailPcall(store, url)
      if not ok then error(err, 0) end
    else
      helper[action.type](store, url, action.file)
    end
  end,
}
