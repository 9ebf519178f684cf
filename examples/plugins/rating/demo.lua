-- A screen that uses ui.stars from the rating plugin, and applies the "rate" actions its
-- buttons dispatch:
--
--   sendingstate run examples/plugins/rating/demo.lua --plugin examples/plugins/rating --send 'tap mine.more'
return {
  name = "Rate us",
  state = { rating = 3 },
  schema = { rating = "integer" },

  layout = function(ui)
    return ui.stack { id = "root", axis = "vertical", spacing = 8,
      ui.label { id = "question", text = "How do you like it?" },
      ui.stars { id = "mine", field = "rating", max = 5 },
    }
  end,

  configure = function() end,

  handle = function(action, store)
    if action.type == "rate" then
      store:update(function(s)
        s[action.field] = math.max(0, math.min(action.max, s[action.field] + action.by))
      end)
    end
  end,
}
