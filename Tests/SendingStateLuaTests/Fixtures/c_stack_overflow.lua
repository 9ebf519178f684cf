-- Recurses through a C function (string.gsub) until the C stack limit.
local function again(s)
  return (string.gsub(s, ".", again))
end
return again("x")
