-- A server-driven screen whose payload has review units; the rating plugin renders them.
return {
  state = { helpful = 0, last = "" },
  layout = function(ui) return ui.stack { ui.sections { id = "feed" }, ui.label { id = "count" } } end,
  configure = function(view, state) view.count.text = tostring(state.helpful) end,
  handle = function(action, store)
    if action.type == "helpful" then
      store:update(function(s) s.helpful = s.helpful + 1; s.last = action.author end)
    end
  end,
}
