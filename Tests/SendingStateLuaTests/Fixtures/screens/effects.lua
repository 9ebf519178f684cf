-- Starts effects from handle; their results come back as actions. Line numbers matter to tests.
return {
  state = { ticks = 0, greeting = "", failed = "" },
  layout = function(ui) return ui.stack { id = "root", ui.label { id = "ticks" } } end,
  configure = function(view, state) view.ticks.text = tostring(state.ticks) end,
  handle = function(action, store)
    if action.type == "start" then
      store:after(0.01, "tick")
      store:after(0.02, { type = "tick" })
    elseif action.type == "slow" then
      store:after(0.2, "tick")
    elseif action.type == "tick" then
      store:update(function(s) s.ticks = s.ticks + 1 end)
    elseif action.type == "load" then
      store:fetch(action.url, { ok = "loaded", fail = "failed" })
    elseif action.type == "loaded" then
      store:update(function(s) s.greeting = action.json.greeting end)
    elseif action.type == "failed" then
      store:update(function(s) s.failed = action.error end)
    elseif action.type == "bad" then
      store:after(0, "explode")
    elseif action.type == "explode" then
      error("result handler failed")                  -- line 23
    elseif action.type == "wait" then
      store:after(load("return " .. action.seconds)(), "tick")   -- line 25
    elseif action.type == "many" then
      for _ = 1, action.count do store:after(3000, "tick") end  -- line 27
    elseif action.type == "search" then
      store:fetch(action.url, { ok = "loaded", fail = "failed" }, { id = "search", debounce = 0.5 })
    end
  end,
}
