-- A die: each roll draws from math.random. Explore seeds the screen's generator from its own
-- seed, so a failure that depends on the draws (a six) replays in `run` and in the spec.
return {
  state = { value = 1, rolls = 0 },
  schema = { value = "integer", rolls = "integer" },
  layout = function(ui) return ui.stack { ui.label { id = "value" }, ui.button { id = "roll", title = "roll" } } end,
  configure = function(view, state) view.value.text = tostring(state.value) end,
  events = function(view, on) on(view.roll, "touchUpInside", function() return "roll" end) end,
  handle = function(_, store)
    local value = math.random(6)
    store:update(function(s) s.value, s.rolls = value, s.rolls + 1 end)
  end,
}
