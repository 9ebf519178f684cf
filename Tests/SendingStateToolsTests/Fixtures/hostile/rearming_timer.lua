-- Hostile: a timer that re-arms itself at once, for ever, and changes the state each time
-- (every batch of results is a step for `run --settle` and `repl`), with 1 MiB of state in it.
return {
  state = { ticks = 0, pad = "" },
  schema = { ticks = "integer", pad = "string" },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.button { id = "start", title = "Start" },
      ui.label { id = "ticks" },
      ui.label { id = "pad" },
    }
  end,
  configure = function(view, state)
    view.ticks.text = tostring(state.ticks)
    view.pad.text = state.pad
  end,
  events = function(view, on)
    on(view.start, "touchUpInside", function() return "tick" end)
  end,
  handle = function(action, store)
    store:update(function(s)
      s.ticks = s.ticks + 1
      s.pad = string.rep(string.char(65 + s.ticks % 26), 1024 * 1024)
    end)
    store:after(0, "tick")
  end,
}
