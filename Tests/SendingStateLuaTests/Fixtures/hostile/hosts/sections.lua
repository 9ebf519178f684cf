-- A host for payload items: renders the payload's sections with one Lua unit type, "card".
return {
  state = { ok = 0, n = 0 },
  units = {
    card = {
      layout = function(ui) return ui.stack { ui.label { id = "title" }, ui.button { id = "add", title = "+" } } end,
      configure = function(view, data, state) view.title.text = tostring(data.title or "card") end,
      events = function(view, on) on(view.add, "touchUpInside", function(data) return "add" end) end,
    },
  },
  layout = function(ui)
    return ui.stack { id = "root", ui.sections { id = "feed" }, ui.label { id = "status" }, ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state) view.status.text = "ok " .. state.ok end,
  events = function(view, on) on(view.ok, "touchUpInside", function() return "ok" end) end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end) end
    if action.type == "add" then store:update(function(s) s.n = s.n + 1 end) end
  end,
}
