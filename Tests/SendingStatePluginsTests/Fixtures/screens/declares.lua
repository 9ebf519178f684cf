-- A screen that declares what it needs: timers only.
return {
  capabilities = { "timers" },
  state = { n = 0 },
  layout = function(ui) return ui.stack { ui.button { id = "go", title = "Go" } } end,
  configure = function() end,
  handle = function(action, store)
    if action.type == "wait" then store:after(1, "tick") end
    if action.type == "fetch" then store:fetch("https://api.example.com/x", { ok = "ok", fail = "fail" }) end  -- line 9
    if action.type == "time" then store:update(function(s) s.n = os.time() end) end  -- line 10
  end,
}
