-- Products: a list with cell reuse, a favorite switch and a quantity slider per row.
--
--   sendingstate run examples/products/products.lua --send 'row items 2 set favorite on'
local catalog = {
  { "green", "Green tea", 4.5 }, { "black", "Black tea", 3.9 }, { "oolong", "Oolong", 6.2 },
  { "white", "White tea", 7.8 }, { "mint", "Mint", 2.5 }, { "chai", "Chai", 4.1 },
  { "rooibos", "Rooibos", 3.6 }, { "matcha", "Matcha", 9.9 }, { "earl", "Earl Grey", 4.4 },
  { "jasmine", "Jasmine", 5.3 }, { "sencha", "Sencha", 5.8 }, { "puerh", "Pu-erh", 8.7 },
}

local items = {}
for i, entry in ipairs(catalog) do
  items[i] = { id = entry[1], name = entry[2], price = entry[3], favorite = false, quantity = 0 }
end

return {
  name = "Products",
  state = { title = "Tea shop", items = items },
  schema = {
    title = "string",
    items = { { id = "string", name = "string", price = "number", favorite = "boolean", quantity = "integer" } },
  },

  layout = function(ui)
    return ui.stack { id = "root", axis = "vertical", spacing = 8,
      ui.label { id = "title" },
      ui.label { id = "summary" },
      ui.list { id = "items", visibleRows = 4,
        -- Builds one row; rows are reused as the list scrolls.
        row = function(ui)
          return ui.stack { id = "line", axis = "horizontal", spacing = 4,
            ui.label { id = "name" },
            ui.label { id = "price" },
            ui.switch { id = "favorite" },
            ui.slider { id = "quantity", min = 0, max = 10 },
          }
        end,
        -- Configures a (possibly reused) row with its item.
        ---@param row Products.ItemsRow
        ---@param item Products.State.ItemsItem
        configure = function(row, item)
          row.name.text = item.name
          row.price.text = string.format("%.2f", item.price)
          row.favorite.isOn = item.favorite
          row.quantity.value = item.quantity
        end,
        -- Row callbacks receive the row's item as their state, resolved at event time.
        ---@param row Products.ItemsRow
        ---@param on SSOn
        events = function(row, on)
          on(row.favorite, "valueChanged", function(item, sender)
            return { type = "favorite", id = item.id, on = sender.isOn }
          end)
          on(row.quantity, "valueChanged", function(item, sender)
            return { type = "quantity", id = item.id, value = math.floor(sender.value + 0.5) }
          end)
        end,
      },
    }
  end,

  ---@param view Products.View
  ---@param state Products.State
  configure = function(view, state)
    view.title.text = state.title
    local favorites, total = 0, 0.0
    for _, item in ipairs(state.items) do
      if item.favorite then favorites = favorites + 1 end
      total = total + item.quantity * item.price
    end
    view.summary.text = string.format("%d favorites, total %.2f", favorites, total)
    view.items.rows = state.items
  end,

  handle = function(action, store)
    store:update(function(s)
      for _, item in ipairs(s.items) do
        if item.id == action.id then
          if action.type == "favorite" then
            item.favorite = action.on
          elseif action.type == "quantity" then
            item.quantity = action.value
          end
        end
      end
    end)
  end,
}
