-- Sandbox rule: 'debug' is not available.
return debug
