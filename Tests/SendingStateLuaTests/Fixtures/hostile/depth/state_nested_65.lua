-- hostile: an update that nests state 65 tables deep
-- trigger: tap b
-- expect: too large
-- message: nested deeper than 64
return {
  state = { ok = 0, deep = {} },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "deep" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    local t = {}
    for _ = 1, 70 do t = { t } end
    store:update(function(s) s.deep = t end) --@
  end,
}
