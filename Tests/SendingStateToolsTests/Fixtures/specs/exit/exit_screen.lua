-- A screen whose button tries to end the process.
return {
  state = {},
  layout = function(ui) return ui.button { id = "quit" } end,
  configure = function() end,
  events = function(view, on) on(view.quit, "touchUpInside", function() return "quit" end) end,
  handle = function()
    os.exit(0)                                                     -- line 8
  end,
}
