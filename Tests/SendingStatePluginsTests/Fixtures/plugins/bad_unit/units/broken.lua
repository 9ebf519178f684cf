-- Forgets to return its module.
local unit = { layout = function(ui) return ui.label {} end }
