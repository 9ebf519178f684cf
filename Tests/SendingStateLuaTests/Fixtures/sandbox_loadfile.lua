-- Sandbox rule: 'loadfile' is not available.
return loadfile
