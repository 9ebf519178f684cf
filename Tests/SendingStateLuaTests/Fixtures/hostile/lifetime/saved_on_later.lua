-- hostile: `on` saved from events, called again from a callback to register a million handlers
-- trigger: tap b
-- expect: runtime
-- message: on
local savedOn
return {
  state = { ok = 0 },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    savedOn = on
    on(view.b, "touchUpInside", function(_, sender)
      savedOn(sender, "touchUpInside", function() return "x" end) --@
      return "attack"
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) end
  end,
}
