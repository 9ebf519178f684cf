-- hostile: an update whose value shares subtables 30 levels deep (2^30 paths when copied)
-- trigger: tap b
-- expect: too large
-- message: values
-- limits: maxNodes=10000
return {
  state = { ok = 0, tree = {} },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "share" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    local t = { leaf = 1 }
    for _ = 1, 30 do t = { a = t, b = t } end
    store:update(function(s) s.tree = t end) --@
  end,
}
