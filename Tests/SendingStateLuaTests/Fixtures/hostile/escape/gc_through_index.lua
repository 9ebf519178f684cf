-- hostile: __gc reached through the metatable's own __index
-- trigger: tap b
-- expect: contained
-- state: {"ok":0}
local keep = {}
return {
  state = { ok = 0 },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "status" },
      ui.button { id = "b", title = "b" },
      ui.button { id = "ok", title = "ok" },
    }
  end,
  configure = function(view, state)
    view.status.text = "ok " .. state.ok
  end,
  events = function(view, on)
    on(view.b, "touchUpInside", function(state, sender)
      keep[#keep + 1] = setmetatable({}, setmetatable({}, { __index = { __gc = function() while true do end end } }))
      collectgarbage("count")
      return nil
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then
      store:update(function(s) s.ok = s.ok + 1 end)
      return
    end
  end,
}
