-- A screen on the clock: `show` shows a notice for 3 s (from require "clock"), `chain` counts
-- three steps one second apart.
local clock = require "clock"
return {
  state = { shown = false, at = 0, steps = 0, log = {} },
  schema = { shown = "boolean", at = "number", steps = "integer", log = "table" },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.button { id = "show", title = "Show" },
      ui.button { id = "chain", title = "Chain" },
      ui.label { id = "notice" },
    }
  end,
  configure = function(view, state) view.notice.hidden = not state.shown end,
  events = function(view, on)
    on(view.show, "touchUpInside", function() return "show" end)
    on(view.chain, "touchUpInside", function() return "step" end)
  end,
  handle = function(action, store)
    if action.type == "show" then
      store:update(function(s) s.shown, s.at = true, clock.now() end)
      store:after(3, "hide")
    elseif action.type == "hide" then
      store:update(function(s) s.shown = false; s.log[#s.log + 1] = "hide@" .. clock.since(s.at) end)
    elseif action.type == "step" then
      store:update(function(s) s.steps = s.steps + 1; s.log[#s.log + 1] = "step@" .. clock.now() end)
      if store.state.steps < 3 then store:after(1, "step") end
    end
  end,
}
