-- Sandbox rule: 'dofile' is not available.
return dofile
