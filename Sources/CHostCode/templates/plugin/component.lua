-- ui.PLUGIN_NAME { id = "…", field = "count", label = "Count" }: shows state[field]; its button
-- dispatches { type = "bump", field = field }, which the screen's handle applies.
return {
  layout = function(ui)
    return ui.stack { axis = "horizontal", spacing = 4,
      ui.label { id = "text" },
      ui.button { id = "bump", title = "+" },
    }
  end,

  -- props: what the screen wrote in ui.PLUGIN_NAME { … }; state: the screen's (a unit's data
  -- inside a unit).
  configure = function(view, props, state)
    view.text.text = (props.label or props.field) .. ": " .. tostring(state[props.field])
  end,

  -- Callbacks get the props, and return actions.
  events = function(view, on)
    on(view.bump, "touchUpInside", function(props) return { type = "bump", field = props.field } end)
  end,
}
