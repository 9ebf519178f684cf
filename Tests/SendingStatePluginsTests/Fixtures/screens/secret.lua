-- The screen's own configuration: a plugin must not be able to read it.
return "token-1234"
