-- A screen that uses a component twice, by name, like a built-in kind.
return {
  state = { rating = 1 },
  components = { stars = require "stars" },
  layout = function(ui)
    return ui.stack { id = "root", ui.stars { id = "five", max = 5 }, ui.stars { id = "three", max = 3 } }
  end,
  configure = function() end,
  handle = function(action, store)
    if action.type == "rate" then
      store:update(function(s) if s.rating < action.max then s.rating = s.rating + 1 end end)
    end
  end,
}
