-- Configures a Swift ProductCard from a Swift Product model.
return function(view, model)
  view.title.text = model.title
  view.price.text = string.format("%.2f", model.price)
  view.favorite.isOn = model.favorite
  if model.price > 100 then
    model.price = 99                -- line 7: the model is read-only
  end
end
