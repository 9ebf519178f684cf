-- Sandbox rule: os.execute is not available (os.clock, os.time, os.date are).
return os.execute("true")
