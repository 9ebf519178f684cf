-- hostile: state keys that need escaping in JSON
-- trigger: tap b
-- expect: ok
-- state: {"ok": 0, "odd": {"a\"b": 1, "line\nbreak": 2, "": 3}}
return {
  state = { ok = 0, odd = { x = 0 } },
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
    store:set({ ok = 0, odd = { ['a"b'] = 1, ["line\nbreak"] = 2, [""] = 3 } })
  end,
}
