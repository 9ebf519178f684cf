-- B2's floor: the counter's tap in plain Lua: find the callback, get the action, handle it, configure.
local views = { title = {}, count = {}, minus = {} }
local state = { title = "Product", count = 1 }
local plus = {}
local forwarders = { [plus] = { touchUpInside = function() return { { type = "increment" } } end } }
local function handle(action, s) if action.type == "increment" then s.count = s.count + 1 end end
local function configure(view, s)
  view.title.text = s.title view.count.text = tostring(s.count) view.minus.enabled = s.count > 0
end
return function(n)
  for _ = 1, n do
    local actions = forwarders[plus].touchUpInside(state)
    for i = 1, #actions do handle(actions[i], state) end
    configure(views, state)
  end
end
