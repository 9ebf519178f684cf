-- hostile: a sender saved in a callback, written from the next callback
-- setup: tap b
-- trigger: tap c
-- expect: runtime
-- message: read-only
local savedSender
return {
  state = { ok = 0 },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "c", title = "c" },
      ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    on(view.b, "touchUpInside", function(_, sender) savedSender = sender return false end)
    on(view.c, "touchUpInside", function()
      savedSender.title = "forged" --@
      return false
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) end
  end,
}
