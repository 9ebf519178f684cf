-- A small pure-Lua module the busted-style suite tests: a cart that reports changes.
local Cart = {}
Cart.__index = Cart

function Cart.new(notify)
  return setmetatable({ items = {}, notify = notify or function() end }, Cart)
end

function Cart:add(name, price, quantity)
  if type(name) ~= "string" or name == "" then error("a cart item needs a name", 2) end
  if type(price) ~= "number" or price < 0 then error("price must be a number ≥ 0", 2) end
  quantity = quantity or 1
  local item = self.items[name] or { name = name, price = price, quantity = 0 }
  item.quantity = item.quantity + quantity
  self.items[name] = item
  self.notify("added", name, item.quantity)
  return item.quantity
end

function Cart:total()
  local total = 0
  for _, item in pairs(self.items) do total = total + item.price * item.quantity end
  return total
end

function Cart:names()
  local names = {}
  for name in pairs(self.items) do names[#names + 1] = name end
  table.sort(names)
  return names
end

return Cart
