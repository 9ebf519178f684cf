-- A component with named states inside a server-driven unit: its state is the unit's data.
local fade = {
  layout = function(ui) return ui.label { id = "text" } end,
  configure = function() end,
  state_name = function(_, data) return data.look end,
  states = {
    soft = {
      set = function(view) view.text.text = "soft" end,
      done = function(view, _, data) view.text.text = "soft " .. data.look end,
      transition = 0.2,
    },
  },
}

return {
  state = { taps = 0 },
  schema = { taps = "integer" },
  components = { fade = fade },
  units = {
    card = {
      layout = function(ui) return ui.stack { id = "card", ui.fade { id = "fade" } } end,
      configure = function() end,
    },
  },
  layout = function(ui) return ui.sections { id = "feed" } end,
  configure = function() end,
  handle = function(action, store)
    if action.type == "tap" then store:update(function(s) s.taps = s.taps + 1 end) end
  end,
}
