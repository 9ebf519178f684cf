-- A counter as a pure reducer: each increment also ticks one second later.
return {
  state = { count = 0, ticks = 0 },
  schema = { count = "integer", ticks = "integer" },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "count" }, ui.button { id = "plus", title = "+" } }
  end,
  configure = function(view, state) view.count.text = tostring(state.count) end,
  events = function(view, on) on(view.plus, "touchUpInside", function() return "increment" end) end,
  reduce = function(state, action)
    if action.type == "increment" then
      return { count = state.count + 1, ticks = state.ticks }, { { after = 1, action = "tick" } }
    elseif action.type == "tick" then
      return { count = state.count, ticks = state.ticks + 1 }
    end
  end,
}
