-- hostile: a store saved in handle, used later from a callback to change state
-- setup: tap ok
-- trigger: tap b
-- expect: runtime
-- message: store can only be used inside handle
local saved
return {
  state = { ok = 0, n = 0 },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok .. " n " .. state.n end,
  events = function(view, on)
    on(view.b, "touchUpInside", function()
      saved:update(function(s) s.n = 99 end) --@
      return "nothing"
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    saved = store
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) end
  end,
}
