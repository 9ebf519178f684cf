-- An event callback fails on line 8.
return {
  state = { n = 1 },
  layout = function(ui) return ui.stack { id = "root", ui.button { id = "b" } } end,
  configure = function(view, state) end,
  events = function(view, on)
    on(view.b, "touchUpInside", function(state)
      return { type = state.missing.field }
    end)
  end,
}
