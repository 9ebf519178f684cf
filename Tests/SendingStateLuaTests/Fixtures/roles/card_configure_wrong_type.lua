-- Gives a switch a string (line 3).
return function(view, model)
  view.favorite.isOn = "yes"
end
