-- Writes a property the label does not have (line 3), after a valid write.
return function(view, model)
  view.title.text = model.title
  view.price.txt = "x"
end
