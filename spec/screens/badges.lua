-- Named states in components: each badge is calm or, once the level passes its limit, on
-- alert (a 0.2 s transition, then done). Its state_name gets its props and the screen's state.
local badge = {
  layout = function(ui) return ui.label { id = "text" } end,
  configure = function() end,
  state_name = function(props, state) return state.level > props.limit and "alert" or "calm" end,
  states = {
    calm = { set = function(view) view.text.text = "calm" end },
    alert = {
      set = function(view, props) view.text.text = "alert over " .. props.limit end,
      done = function(view) view.text.text = view.text.text .. "!" end,
      transition = 0.2,
    },
  },
}

return {
  state = { level = 0 },
  schema = { level = "integer" },
  components = { badge = badge },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.button { id = "up", title = "+" },
      ui.badge { id = "low", limit = 1 },
      ui.badge { id = "high", limit = 2 },
    }
  end,
  configure = function() end,
  events = function(view, on)
    on(view.up, "touchUpInside", function() return "up" end)
  end,
  handle = function(action, store)
    if action.type == "up" then store:update(function(s) s.level = s.level + 1 end) end
  end,
}
