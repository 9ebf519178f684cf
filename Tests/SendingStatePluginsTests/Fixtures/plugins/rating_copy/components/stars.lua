-- A component: a row of stars for a rating (props: max), configured from the screen's state.
return {
  layout = function(ui)
    return ui.stack { axis = "horizontal", ui.label { id = "stars" }, ui.button { id = "more", title = "+" } }
  end,
  configure = function(view, props, state)
    view.stars.text = string.rep("*", state.rating) .. string.rep(".", props.max - state.rating)
  end,
  events = function(view, on)
    on(view.more, "touchUpInside", function(props) return { type = "rate", max = props.max } end)
  end,
}
