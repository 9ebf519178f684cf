-- A counter as a pure reducer: state and action in, next state and effects out. Lines matter.
return {
  state = { count = 0, ticks = 0 },
  schema = { count = "integer", ticks = "integer" },
  layout = function(ui) return ui.stack { ui.label { id = "count" } } end,
  configure = function(view, state) view.count.text = tostring(state.count) end,
  reduce = function(state, action)
    if action.type == "increment" then
      return { count = state.count + 1, ticks = state.ticks }, { { after = 1, action = "tick" } }
    elseif action.type == "tick" then
      return { count = state.count, ticks = state.ticks + 1 }
    elseif action.type == "twice" then
      return nil, { { dispatch = "increment" }, { dispatch = "increment" } }
    elseif action.type == "mutate" then
      state.count = 99                                   -- line 15
    elseif action.type == "badDelay" then
      return state, { { after = -1, action = "tick" } }
    elseif action.type == "badEffect" then
      return state, { { sleep = 1 } }
    elseif action.type == "badState" then
      return { count = "many", ticks = 0 }
    elseif action.type == "notTable" then
      return 42
    end
  end,
}
