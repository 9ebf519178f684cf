-- hostile: a callback returns an action carrying NaN
-- trigger: tap b
-- expect: type mismatch
-- message: NaN
return {
  state = { ok = 0 },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() --@
      return { type = "measure", value = 0/0 }
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) end
  end,
}
