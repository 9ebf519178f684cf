-- hostile: updates that put one branch of the state inside another, through drafts, a little deeper each time
-- trigger: tap b
-- expect: too large
-- message: nested deeper than 64
return {
  state = { ok = 0, a = { v = 1 }, b = { v = 2 } },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "grow" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    local function nest(into, from)
      store:update(function(s) s[into].c = { z = s[from] } end) --@
    end
    for _ = 1, 40 do
      nest("b", "a")
      nest("a", "b")
    end
  end,
}
