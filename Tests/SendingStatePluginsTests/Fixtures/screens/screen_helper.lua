-- A module of the screen's own (it has the screen's rights).
return { now = function() return os.time() end }
