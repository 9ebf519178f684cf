-- A callback that forgets to return its action (line 8); its effect is refused in check's dry run.
return {
  state = { n = 0 },
  layout = function(ui) return ui.stack { ui.button { id = "go" }, ui.switch { id = "on" } } end,
  configure = function() end,
  events = function(view, on)
    on(view.go, "touchUpInside", function() return "tick" end)
    on(view.on, "valueChanged", function(state, sender)
      local action = { type = "toggle", on = sender.isOn }
    end)
  end,
  handle = function(action, store) store:after(1, "tick") end,
}
