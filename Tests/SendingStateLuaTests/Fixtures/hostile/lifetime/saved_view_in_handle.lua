-- hostile: views saved in configure, written later from handle
-- trigger: tap b
-- expect: runtime
-- message: views are
local savedView
return {
  state = { ok = 0 },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state)
    savedView = view
    view.status.text = "ok " .. state.ok
  end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "attack" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    savedView.status.text = "forged" --@
  end,
}
