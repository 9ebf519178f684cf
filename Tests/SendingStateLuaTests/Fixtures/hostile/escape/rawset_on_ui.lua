-- hostile: rawset on ui replaces a builder for every later layout (rows, units, plugins' components)
-- trigger: tap b
-- expect: sandbox violation
-- message: rawset cannot write a read-only value
local kept
return {
  state = { ok = 0 },
  layout = function(ui)
    kept = ui
    return ui.stack {
      id = "root", ui.label { id = "status" },
      ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" },
    }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    on(view.b, "touchUpInside", function()
      rawset(kept, "label", function() print("ESCAPED: ui.label was replaced") end) --@
      return "ok"
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(_, store) store:update(function(s) s.ok = s.ok + 1 end) end,
}
