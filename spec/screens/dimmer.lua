-- Transitions: a state's own, else the screen's default (state_transition); 0 is at once.
return {
  state = { level = "dark" },
  schema = { level = "string" },
  layout = function(ui) return ui.label { id = "l" } end,
  configure = function() end,
  state_name = function(state) return state.level end,
  state_transition = 0.3,
  states = {
    dark = { set = function(view) view.l.text = "dark" end, transition = 0 },
    dim = { set = function(view) view.l.text = "dim" end },  -- the screen's default: 0.3 s
    bright = { set = function(view) view.l.text = "bright" end, transition = 1 },
  },
  handle = function(action, store) store:update(function(s) s.level = action.level end) end,
}
