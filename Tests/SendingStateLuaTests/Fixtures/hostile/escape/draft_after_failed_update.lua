-- hostile: a draft kept from an update that failed (caught with pcall) is placed in the state, then written
-- trigger: tap b
-- expect: runtime
-- message: this draft belongs to a store:update that has ended
return {
  state = { ok = 0, b = { x = 1 }, c = { x = 0 } },
  schema = { ok = "integer", b = { x = "integer" }, c = { x = "integer" } },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.button { id = "b", title = "b" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "alias" end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) return end
    local kept
    pcall(store.update, store, function(s)
      kept = s.b
      kept.x = 2
      return { kept, print }
    end)
    store:update(function(s) s.c = kept end) --@
    kept.x = "not an integer"
    kept.fn = print
  end,
}
