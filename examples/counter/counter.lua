-- Counter: the smallest whole screen. A title, a count, and buttons that change it.
--
--   sendingstate run examples/counter/counter.lua --send 'tap plus'
local ss = require "sendingstate"

return {
  name = "Counter",

  -- The initial state. Every new state must fit the schema.
  state = { title = "Product", count = 1 },
  schema = { title = "string", count = "integer" },

  -- Builds the view tree once.
  layout = function(ui)
    return ui.stack { id = "root", axis = "vertical", spacing = 8,
      ui.label { id = "title" },
      ui.label { id = "count" },
      ui.stack { id = "buttons", axis = "horizontal", spacing = 4,
        ui.button { id = "minus", title = "-" },
        ui.button { id = "plus", title = "+" },
      },
      ui.label { id = "version", text = "host API " .. ss.version },
    }
  end,

  -- State flows in: the only place views change.
  ---@param view Counter.View
  ---@param state Counter.State
  configure = function(view, state)
    view.title.text = state.title
    view.count.text = tostring(state.count)
    view.minus.enabled = state.count > 0
  end,

  -- Intent flows out: sender → event → actions.
  ---@param view Counter.View
  ---@param on SSOn
  events = function(view, on)
    on(view.plus, "touchUpInside", function(state) return { { type = "increment" } } end)
    on(view.minus, "touchUpInside", function(state) return "decrement" end)
    on(view.count, { gesture = "tap", taps = 2 }, function(state) return { type = "reset" } end)
  end,

  -- Actions change state only through the store.
  handle = function(action, store)
    if action.type == "increment" then
      store:update(function(s) s.count = s.count + 1 end)
    elseif action.type == "decrement" then
      store:update(function(s) s.count = s.count - 1 end)
    elseif action.type == "reset" then
      store:set({ title = store.state.title, count = 0 })
    end
  end,
}
