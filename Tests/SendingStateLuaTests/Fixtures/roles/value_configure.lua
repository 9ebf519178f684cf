-- Configures any view with a title label from a plain table.
return function(view, model)
  view.title.text = model.title
end
