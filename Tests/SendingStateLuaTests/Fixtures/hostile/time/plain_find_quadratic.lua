-- hostile: a plain find whose needle almost matches everywhere
-- trigger: tap b
-- expect: ok
-- state: {"ok":0}
-- note: the host's plain find is linear, so this answers (nil) in milliseconds; a quadratic find (10^12 comparisons) would hit even this generous time limit (generous so a loaded machine cannot fail it) and fail the item
-- limits: budget=none time=10000
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
      local hay = string.rep("a", 2000000)
      local needle = string.rep("a", 1000000) .. "b"
      return hay:find(needle, 1, true)
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
