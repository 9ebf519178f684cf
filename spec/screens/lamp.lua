-- Named states: a lamp that is off, on in a color (its update carries the color), or warming
-- up (a 0.5 s transition, then done). state_name picks the named state from the state's mode.
-- The hooks write what ran into the `trace` label, so specs can see the order.
local function note(view, text)
  view.trace.text = view.trace.text == "" and text or (view.trace.text .. ", " .. text)
end

return {
  state = { mode = "off", color = 0, fail = "" },
  schema = { mode = "string", color = "integer", fail = "string" },

  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "trace" }, ui.label { id = "color" }, ui.label { id = "glow" } }
  end,

  configure = function() end,

  state_name = function(state)
    if state.mode == "wrong" then return "nope" end
    return state.mode
  end,

  states = {
    off = {
      set = function(view) note(view, "set off") end,
    },
    on = {
      set = function(view) note(view, "set on") end,
      update = function(view, state)
        note(view, "update on " .. state.color)
        view.color.text = tostring(state.color)
        if state.fail == "update" then error("the bulb broke") end
      end,
    },
    warming = {
      set = function(view)
        note(view, "set warming")
        view.glow.text = "warming"
      end,
      done = function(view, state)
        note(view, "done warming")
        view.glow.text = "warm"
        if state.fail == "done" then error("the filament broke") end
      end,
      transition = 0.5,
    },
  },

  handle = function(action, store)
    store:update(function(s)
      if action.mode ~= nil then s.mode = action.mode end
      if action.color ~= nil then s.color = action.color end
      if action.fail ~= nil then s.fail = action.fail end
    end)
  end,
}
