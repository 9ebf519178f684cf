-- A product unit: name, price, an add button and how many are in the cart.
return {
  layout = function(ui)
    return ui.stack { axis = "horizontal", spacing = 4,
      ui.label { id = "name" },
      ui.label { id = "price" },
      ui.button { id = "add", title = "Add" },
      ui.label { id = "inCart" },
    }
  end,
  -- Called on every screen configure, with the unit's data and the screen's state.
  configure = function(view, data, state)
    view.name.text = data.name
    view.price.text = string.format("%.2f", data.price)
    view.inCart.text = tostring(state.cart[data.id] or 0)
  end,
  -- Callbacks receive the unit's data as their state.
  events = function(view, on)
    on(view.add, "touchUpInside", function(data)
      return { type = "add", id = data.id, price = data.price }
    end)
  end,
}
