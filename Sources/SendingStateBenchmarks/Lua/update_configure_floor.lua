-- B1's floor for a screen event: the same update and configure on plain tables.
local views = { a = {}, b = {}, c = {} }
local state = { a = 1, b = 2, c = 3 }
local function update(s) s.a = s.a + 1 s.b = s.b + 1 s.c = s.c + 1 end
local function configure(view, s)
  view.a.text = tostring(s.a) view.b.text = tostring(s.b) view.c.text = tostring(s.c)
end
return function(n) for _ = 1, n do update(state) configure(views, state) end end
