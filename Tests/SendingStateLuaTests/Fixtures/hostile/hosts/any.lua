-- A host for start-state items: no schema, so any data is a valid state.
return {
  state = { ok = 0 },
  layout = function(ui) return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "ok", title = "ok" } } end,
  configure = function(view, state) view.status.text = "ok " .. tostring(state.ok) end,
  events = function(view, on) on(view.ok, "touchUpInside", function() return "ok" end) end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = (s.ok or 0) + 1 end) end
  end,
}
