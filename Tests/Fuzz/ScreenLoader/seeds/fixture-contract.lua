local ss = require "sendingstate"          -- host API module (optional for simple screens)
return {
  name = "Counter",                        -- optional
  state = { title = "Product", count = 1 },-- initial state (required)
  schema = { title = "string", count = "integer" }, -- optional: validates every new state
  layout = function(ui)                    -- required: builds the view tree once
    return ui.stack { id = "root", axis = "vertical",
      ui.label { id = "title" }, ui.label { id = "count" },
      ui.button { id = "plus", title = "+" } }
  end,
  configure = function(view, state)        -- required: view.<id> is the view with that id
    view.title.text = state.title
    view.count.text = tostring(state.count)
  end,
  events = function(view, on)              -- optional: on(sender, event, fn(state, sender) -> actions)
    on(view.plus, "touchUpInside", function(state) return { { type = "increment" } } end)
  end,
  handle = function(action, store)         -- optional: store.state, store:update(fn), store:set(t)
    if action.type == "increment" then store:update(function(s) s.count = s.count + 1 end) end
  end,
}
