-- ui.stars { id = "…", field = "rating", max = 5, readonly = false }
--
-- Shows state[field] (a whole number from 0 to max) as stars; inside a unit, "state" is the
-- unit's data. Unless readonly, its - and + buttons dispatch
-- { type = "rate", field = field, by = -1 or 1, max = max }: the screen's handle applies it
-- (a component returns actions; it never writes state).
local function clamp(value, max)
  value = math.tointeger(value) or 0
  return math.max(0, math.min(max, value))
end

return {
  layout = function(ui)
    return ui.stack { axis = "horizontal", spacing = 4,
      ui.button { id = "less", title = "-" },
      ui.label { id = "stars" },
      ui.button { id = "more", title = "+" },
    }
  end,

  configure = function(view, props, state)
    local max = math.tointeger(props.max) or 5
    local value = clamp(state[props.field or "rating"], max)
    view.stars.text = string.rep("★", value) .. string.rep("☆", max - value)
    view.less.hidden = props.readonly == true
    view.more.hidden = props.readonly == true
    view.less.enabled = value > 0
    view.more.enabled = value < max
  end,

  -- Callbacks get the props.
  events = function(view, on)
    local function rate(props, by)
      return { type = "rate", field = props.field or "rating", by = by, max = props.max or 5 }
    end
    on(view.less, "touchUpInside", function(props) return rate(props, -1) end)
    on(view.more, "touchUpInside", function(props) return rate(props, 1) end)
  end,
}
