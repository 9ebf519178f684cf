-- The contract requires layout.
return { state = {}, configure = function() end }
