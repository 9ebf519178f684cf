-- A banner unit: a title and a subtitle from the server.
return {
  layout = function(ui)
    return ui.stack { axis = "vertical",
      ui.label { id = "title" },
      ui.label { id = "subtitle" },
    }
  end,
  configure = function(view, data, state)
    view.title.text = data.title
    view.subtitle.text = data.subtitle or ""
  end,
}
