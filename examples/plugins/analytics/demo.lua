-- A screen that opts in to analytics: it keeps an `analytics` table in its state, and shows
-- the report. Run it with the plugin (it needs the plugin's module):
--
--   sendingstate run examples/plugins/analytics/demo.lua --plugin examples/plugins/analytics --send 'tap plus'
local report = require "analytics.report"

return {
  name = "Analytics demo",
  state = { count = 0, analytics = {} },
  schema = { count = "integer", analytics = "table" },

  layout = function(ui)
    return ui.stack { id = "root", axis = "vertical", spacing = 8,
      ui.label { id = "count" },
      ui.stack { axis = "horizontal", spacing = 4,
        ui.button { id = "minus", title = "-" },
        ui.button { id = "plus", title = "+" },
        ui.button { id = "secret", title = "?" },
      },
      ui.label { id = "report" },
    }
  end,

  ---@param view AnalyticsDemo.View
  ---@param state AnalyticsDemo.State
  configure = function(view, state)
    view.count.text = tostring(state.count)
    view.report.text = report.line(state.analytics)
  end,

  ---@param view AnalyticsDemo.View
  ---@param on SSOn
  events = function(view, on)
    on(view.plus, "touchUpInside", function() return "increment" end)
    on(view.minus, "touchUpInside", function() return "decrement" end)
    on(view.secret, "touchUpInside", function() return "_peek" end)
  end,

  handle = function(action, store)
    if action.type == "increment" then
      store:update(function(s) s.count = s.count + 1 end)
    elseif action.type == "decrement" then
      store:update(function(s) s.count = s.count - 1 end)
    elseif action.type == "_peek" then
      error("a private action reached handle")  -- the middleware drops these
    end
  end,
}
