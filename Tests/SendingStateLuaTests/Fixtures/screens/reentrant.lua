-- A screen whose handle calls a host function that drives the screen again (see
-- ReentrancyTests): the engine runs one event at a time.
local poke = require "poke"

return {
  state = { count = 0 },
  schema = { count = "integer" },
  layout = function(ui)
    return ui.stack { id = "root", ui.button { id = "go", title = "go" }, ui.button { id = "plus", title = "+" } }
  end,
  configure = function(view, state) view.go.title = "go " .. state.count end,
  events = function(view, on)
    on(view.go, "touchUpInside", function() return "go" end)
    on(view.plus, "touchUpInside", function() return "plus" end)
  end,
  handle = function(action, store)
    if action.type == "go" then
      store:update(function(s) s.count = s.count + 10 end)
      poke.again()
    elseif action.type == "plus" then
      store:update(function(s) s.count = s.count + 1 end)
    end
  end,
}
