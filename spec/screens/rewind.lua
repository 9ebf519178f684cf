-- A screen with timers for Rewind's tests: `tick` fires in a second, `search` is debounced
-- (0.5 s, a newer one replaces it), `burst` is throttled (one per 2 s under its id).
return {
  state = { ticks = 0, searches = 0, bursts = 0, note = "" },
  schema = { ticks = "integer", searches = "integer", bursts = "integer", note = "string" },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.button { id = "tick", title = "Tick" },
      ui.button { id = "search", title = "Search" },
      ui.button { id = "burst", title = "Burst" },
      ui.label { id = "ticks" },
    }
  end,
  configure = function(view, state) view.ticks.text = tostring(state.ticks) end,
  events = function(view, on)
    on(view.tick, "touchUpInside", function() return "tick" end)
    on(view.search, "touchUpInside", function() return "search" end)
    on(view.burst, "touchUpInside", function() return "burst" end)
  end,
  handle = function(action, store)
    if action.type == "tick" then
      store:after(1, "ticked")
    elseif action.type == "search" then
      store:after(0, "searched", { id = "query", debounce = 0.5 })
    elseif action.type == "burst" then
      store:after(0, "burst_done", { id = "bursts", throttle = 2 })
    elseif action.type == "ticked" then
      store:update(function(s) s.ticks = s.ticks + 1 end)
    elseif action.type == "searched" then
      store:update(function(s) s.searches = s.searches + 1 end)
    elseif action.type == "burst_done" then
      store:update(function(s) s.bursts = s.bursts + 1 end)
    end
  end,
}
