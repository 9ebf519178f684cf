-- hostile: store:update from a coroutine inside an update's function (its own stack hides the outer update)
-- trigger: tap b
-- expect: runtime
-- message: cannot be used inside an update's function
return {
  state = { ok = 0, inner = { n = 0 } },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "nested" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    store:update(function(s)
      s.ok = 5
      coroutine.wrap(function()
        store:update(function(t) t.inner.n = 1 end) --@
      end)()
    end)
  end,
}
