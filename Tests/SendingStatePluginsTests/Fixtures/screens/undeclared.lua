-- A screen that declares nothing: what it may do is what it was granted (everything by default).
return {
  state = { n = 0 },
  layout = function(ui) return ui.stack { ui.button { id = "go", title = "Go" } } end,
  configure = function() end,
  handle = function(action, store)
    if action.type == "wait" then store:after(1, "tick") end
    if action.type == "fetch" then store:fetch(action.url, { ok = "ok", fail = "fail" }) end  -- line 8
    if action.type == "time" then store:update(function(s) s.n = os.time() end) end  -- line 9
  end,
  events = function(view, on) on(view.go, "touchUpInside", function() return "wait" end) end,
}
