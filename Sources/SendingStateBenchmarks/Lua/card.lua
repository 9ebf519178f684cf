-- B1: a Swift-driven LuaConfigurer's function.
return function(view, m)
  view.title.text = m.title
  view.count.text = tostring(m.count)
  view.price.text = tostring(m.price)
end
