-- A screen behind the test's Swift plugin "gate", whose middleware drops `secret`.
return {
  state = { seen = 0 },
  layout = function(ui) return ui.button { id = "b", title = "secret" } end,
  configure = function() end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return "secret" end)
  end,
  handle = function(_, store) store:update(function(s) s.seen = s.seen + 1 end) end,
}
