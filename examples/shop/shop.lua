-- Shop: a server-driven screen. The payload (--data payload.json) lists sections of units;
-- each unit type has a Lua renderer in units/. Unknown types render a placeholder.
--
--   sendingstate run examples/shop/shop.lua --data examples/shop/payload.json --send 'tap matcha.add'
return {
  name = "Shop",
  state = { cart = {}, count = 0, total = 0 },
  schema = { cart = "table", count = "integer", total = "number" },

  units = {
    banner = require "units.banner",
    product = require "units.product",
  },

  layout = function(ui)
    return ui.stack { id = "root", axis = "vertical", spacing = 8,
      ui.sections { id = "feed" },
      ui.label { id = "summary" },
    }
  end,

  ---@param view Shop.View
  ---@param state Shop.State
  configure = function(view, state)
    view.summary.text = string.format("%d in cart, total %.2f", state.count, state.total)
  end,

  handle = function(action, store)
    if action.type == "add" then
      store:update(function(s)
        s.cart[action.id] = (s.cart[action.id] or 0) + 1
        s.count = s.count + 1
        s.total = s.total + action.price
      end)
    end
  end,
}
