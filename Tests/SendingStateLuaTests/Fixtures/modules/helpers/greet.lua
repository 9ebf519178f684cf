-- A module found under a script root.
return function(name) return "hello " .. name end
