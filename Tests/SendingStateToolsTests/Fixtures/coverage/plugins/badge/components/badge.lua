-- ui.badge { id = "…", field = "count" }: the field's value; "?" when it is missing (never, in the spec).
return {
  layout = function(ui)
    return ui.label { id = "text" }
  end,

  configure = function(view, props, state)
    local value = state[props.field]
    if value == nil then
      view.text.text = "?"
    else
      view.text.text = "#" .. tostring(value)
    end
  end,
}
