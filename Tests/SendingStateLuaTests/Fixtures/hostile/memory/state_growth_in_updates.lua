-- hostile: updates that keep adding megabytes to the state until the cap
-- trigger: tap b
-- expect: memory
-- limits: time=none budget=none
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
      return "go"
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then
      store:update(function(s) s.ok = s.ok + 1 end)
      return
    end
    for i = 1, 20 do store:update(function(s) s["k" .. i] = string.rep(string.char(64 + i), 2000000) end) end --@
  end,
}
