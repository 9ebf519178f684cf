-- Sandbox rule: the shared string methods have no dump either.
return ("x").dump(function() end)
