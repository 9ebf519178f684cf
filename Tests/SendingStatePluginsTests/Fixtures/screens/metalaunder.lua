-- A screen with every right that only iterates, joins, compares and sorts values the launder
-- plugin hands it: the plugin's metamethods make those operations call the store's fetch.
local helper = require "launder.helper"
return {
  state = { got = 0 },
  layout = function(ui) return ui.stack { ui.button { id = "go", title = "Go" } } end,
  configure = function() end,
  handle = function(action, store)
    local url = "http://127.0.0.1:9/x"
    if action.type == "got" or action.type == "failed" then
      store:update(function(s) s.got = s.got + 1 end)
    elseif action.type == "pairs" then
      for _ in pairs(helper.pairsObject(store, url)) do end                      -- line 13
    elseif action.type == "concat" then
      local _ = url .. helper.orderObject(store)                                 -- line 15
      return
    elseif action.type == "less" then
      local _ = url < helper.orderObject(store)                                  -- line 18
      return
    elseif action.type == "sort" then
      table.sort({ url, helper.orderObject(store) })                             -- line 21
    elseif action.type == "own" then
      for _ in pairs({ 1 }) do store:fetch(url, { ok = "got", fail = "failed" }) end
    end
  end,
}
