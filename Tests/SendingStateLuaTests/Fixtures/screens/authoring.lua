-- Authoring mistakes the host points out. Line numbers matter to tests.
return {
  state = { steps = {} },
  layout = function(ui)
    return ui.stack {
      ui.button { id = "silent" },
      ui.button { id = "quiet" },
      ui.stepper { id = "whole", step = 2, max = 10 },
      ui.stepper { id = "half", step = 0.5, max = 10 },
    }
  end,
  configure = function() end,
  events = function(view, on)
    on(view.silent, "touchUpInside", function(state)  -- line 14: forgets to return
      local action = { type = "go" }
    end)
    on(view.quiet, "touchUpInside", function() return false end)
    on(view.whole, "valueChanged", function(_, sender) return { type = "step", kind = math.type(sender.value) } end)
    on(view.half, "valueChanged", function(_, sender) return { type = "step", kind = math.type(sender.value) } end)
  end,
  handle = function() end,
}
