-- Timers: `later` adds 1 after 5 s, `soon` adds 10 after 1 s, `relay` adds 100 after 2 s and
-- sets another timer that adds 1000 after 2 s more.
return {
  state = { total = 0, order = {} },
  layout = function(ui) return ui.stack { ui.label { id = "total" } } end,
  configure = function(view, state) view.total.text = tostring(state.total) end,
  handle = function(action, store)
    if action.type == "later" then store:after(5, { type = "add", n = 1 })
    elseif action.type == "soon" then store:after(1, { type = "add", n = 10 })
    elseif action.type == "relay" then store:after(2, { type = "add", n = 100, relay = true })
    elseif action.type == "add" then
      store:update(function(s) s.total = s.total + action.n; s.order[#s.order + 1] = action.n end)
      if action.relay then store:after(2, { type = "add", n = 1000 }) end
    elseif action.type == "rearm" then
      store:after(1e-9, "rearm")
    elseif action.type == "every" then
      store:update(function(s) s.total = s.total + 1 end)
      store:after(0.01, "every")
    end
  end,
}
