-- Actions are read-only in handle and middleware (see OneWayRuleTests).
return {
  state = { count = 0 },
  schema = { count = "integer" },
  layout = function(ui) return ui.label { id = "count" } end,
  configure = function(view, state) view.count.text = tostring(state.count) end,
  handle = function(action, store)
    if action.type == "poke" then
      action.amount = 5
    elseif action.type == "add" then
      store:update(function(s) s.count = s.count + action.amount end)
    end
  end,
}
