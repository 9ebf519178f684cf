-- reduce(state, action): the second parameter is the action (line 9 is reported).
return {
  state = { count = 0 },
  layout = function(ui)
    return ui.button { id = "plus", title = "+" }
  end,
  configure = function() end,
  reduce = function(state, action)
    if action == "inc" then return { count = state.count + 1 } end
    return nil
  end,
}
