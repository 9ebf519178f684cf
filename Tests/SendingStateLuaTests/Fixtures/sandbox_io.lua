-- Sandbox rule: 'io' is not available.
return io
