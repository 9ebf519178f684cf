return "analytics"
