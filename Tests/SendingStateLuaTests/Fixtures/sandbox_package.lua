-- Sandbox rule: 'package' is not available.
return package
