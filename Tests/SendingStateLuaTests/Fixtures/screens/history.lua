-- configure sees the state it showed before; an unchanged state does not reconfigure.
local renders = 0
return {
  state = { count = 0, title = "t" },
  layout = function(ui) return ui.stack { ui.label { id = "count" }, ui.label { id = "was" }, ui.label { id = "renders" } } end,
  configure = function(view, state, old)
    renders = renders + 1
    view.count.text = tostring(state.count)
    view.was.text = old == nil and "first" or tostring(old.count)
    view.renders.text = tostring(renders)
  end,
  handle = function(action, store)
    if action.type == "bump" then store:update(function(s) s.count = s.count + 1 end)
    elseif action.type == "same" then store:update(function(s) s.count = s.count s.title = "t" end)
    elseif action.type == "float" then store:update(function(s) s.count = s.count + 0.0 end)  -- equal in Lua, a float now
    elseif action.type == "float and title" then store:update(function(s) s.count = s.count + 0.0 s.title = "u" end) end
  end,
}
