-- hostile: a handler whose second update breaks the schema
-- trigger: tap b
-- expect: type mismatch
-- message: state.count
return {
  state = { ok = 0, count = 0 },
  schema = { ok = "integer", count = "integer" },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "attack" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    store:update(function(s) s.count = 5 end)
    store:update(function(s) s.count = "five" end) --@
  end,
}
