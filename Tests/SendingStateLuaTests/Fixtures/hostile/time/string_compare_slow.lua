-- hostile: comparisons of two 4 MB strings: one instruction, a lot of work (a 1 s limit: building the strings must not use it up on a loaded machine)
-- trigger: tap b
-- expect: time limit exceeded
-- limits: budget=none time=1000
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
      local a, b = string.rep("a", 4000000), string.rep("a", 3999999) .. "b"
      while true do local _ = a < b end --@
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
