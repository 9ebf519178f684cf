-- Calls a Swift function that fails; the error is not caught.
local value = 1
return explode(value)
