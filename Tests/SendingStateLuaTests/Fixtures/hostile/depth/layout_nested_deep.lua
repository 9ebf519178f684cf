-- hostile: a layout of stacks nested 200 deep
-- trigger: load
-- expect: too large
-- message: nested deeper than 64
return {
  state = { ok = 0 },
  layout = function(ui)
    local view = ui.label { id = "status" }
    for _ = 1, 200 do view = ui.stack { view } end --@
    return ui.stack { id = "root", view, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on) on(view.ok, "touchUpInside", function() return "ok" end) end,
  handle = function(action, store) store:update(function(s) s.ok = s.ok + 1 end) end,
}
