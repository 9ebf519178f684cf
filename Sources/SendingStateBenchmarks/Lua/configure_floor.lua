-- B1's floor: the same configure of 3 fields on plain tables.
local views = { a = {}, b = {}, c = {} }
local state = { a = 1, b = 2, c = 3 }
local function configure(view, s)
  view.a.text = tostring(s.a) view.b.text = tostring(s.b) view.c.text = tostring(s.c)
end
return function(n) for _ = 1, n do configure(views, state) end end
