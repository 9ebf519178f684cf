-- A screen whose covered lines the coverage tests know (see CoverageTests).
local steps = require "steps"

return {
  state = { count = 0 },
  schema = { count = "integer" },

  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "count" },
      ui.button { id = "plus", title = "+" },
      ui.badge { id = "badge", field = "count" },
    }
  end,

  configure = function(view, state)
    view.count.text = tostring(state.count)
  end,

  events = function(view, on)
    on(view.plus, "touchUpInside", function() return "increment" end)
  end,

  handle = function(action, store)
    if action.type == "increment" then
      store:update(function(s) s.count = steps.after(s.count, 1) end)
    else
      store:set({ count = 0 })
    end
  end,
}
