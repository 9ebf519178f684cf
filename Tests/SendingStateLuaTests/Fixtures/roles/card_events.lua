-- Declares the card's events; callbacks get the state at event time and the sender.
return function(view, on)
  on(view.buy, "touchUpInside", function(product)
    return { type = "buy", id = product.id }
  end)
  on(view.favorite, "valueChanged", function(product, sender)
    return { type = "favorite", id = product.id, on = sender.isOn }
  end)
end
