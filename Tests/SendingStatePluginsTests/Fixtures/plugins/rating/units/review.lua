-- A unit renderer: a review from the server (data: author, rating, text), built with the
-- plugin's own ui.stars component (which, inside a unit, shows the unit's data).
return {
  layout = function(ui)
    return ui.stack { axis = "vertical",
      ui.label { id = "author" },
      ui.label { id = "text" },
      ui.stars { id = "given", max = 5 },
      ui.button { id = "helpful", title = "Helpful" },
    }
  end,
  configure = function(view, data, state)
    view.author.text = data.author .. " (" .. data.rating .. ")"
    if data.text == "boom" and state.helpful > 0 then error("cannot show this review") end
    view.text.text = data.text
  end,
  events = function(view, on)
    on(view.helpful, "touchUpInside", function(data) return { type = "helpful", author = data.author } end)
  end,
}
