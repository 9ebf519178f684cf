-- A screen: state flows in through configure, intent flows out through events.
--   sendingstate run screen.lua --send 'tap plus'
return {
  name = "Counter",
  state = { count = 0 },
  schema = { count = "integer" },

  layout = function(ui)
    return ui.stack { id = "root", axis = "vertical", spacing = 8,
      ui.label { id = "count" },
      ui.button { id = "plus", title = "+" },
    }
  end,

  ---@param view Screen.View
  ---@param state Screen.State
  configure = function(view, state)
    view.count.text = tostring(state.count)
  end,

  ---@param view Screen.View
  ---@param on SSOn
  events = function(view, on)
    on(view.plus, "touchUpInside", function(state) return "increment" end)
  end,

  handle = function(action, store)
    if action.type == "increment" then
      store:update(function(s) s.count = s.count + 1 end)
    end
  end,
}
