-- A screen that only holds the state it is opened with (no schema): specs hand it values.
return {
  state = {},
  layout = function(ui) return ui.label { id = "l" } end,
  configure = function() end,
}
