-- A screen that uses ui.PLUGIN_NAME:
--   sendingstate run demo.lua --plugin . --send 'tap clicks.bump'
return {
  name = "PLUGIN_NAME demo",
  state = { count = 0 },
  schema = { count = "integer" },

  layout = function(ui)
    return ui.stack { id = "root", axis = "vertical",
      ui.PLUGIN_NAME { id = "clicks", field = "count", label = "Clicks" },
    }
  end,

  configure = function() end,

  handle = function(action, store)
    if action.type == "bump" then
      store:update(function(s) s[action.field] = s[action.field] + 1 end)
    end
  end,
}
