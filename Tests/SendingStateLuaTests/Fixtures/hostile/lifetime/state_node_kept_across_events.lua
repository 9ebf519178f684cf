-- hostile: a state table kept from one callback and read in a later one (it must still be the old, unchanged value)
-- setup: tap keep
-- setup: tap ok
-- trigger: tap b
-- expect: ok
-- state: {"ok": 1, "seen": 0}
local kept
return {
  state = { ok = 0, seen = -1 },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "keep", title = "keep" },
      ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    on(view.keep, "touchUpInside", function(state) kept = state return false end)
    on(view.b, "touchUpInside", function() return { type = "seen", value = kept.ok } end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end)
    elseif action.type == "seen" then store:update(function(s) s.seen = action.value end) end
  end,
}
