-- A "review" unit from the server: { id, author, rating (0-5), text }. Its button dispatches
-- { type = "helpful", review = id }.
return {
  layout = function(ui)
    return ui.stack { axis = "vertical", spacing = 2,
      ui.label { id = "author" },
      ui.stars { id = "given", field = "rating", max = 5, readonly = true },
      ui.label { id = "text" },
      ui.button { id = "helpful", title = "Helpful" },
    }
  end,

  configure = function(view, data)
    view.author.text = data.author
    view.text.text = data.text or ""
  end,

  events = function(view, on)
    on(view.helpful, "touchUpInside", function(data) return { type = "helpful", review = data.id } end)
  end,
}
