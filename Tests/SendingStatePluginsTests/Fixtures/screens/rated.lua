-- A screen that uses the rating plugin's ui.stars without declaring it (run with --plugin …/rating).
return {
  state = { rating = 1 },
  layout = function(ui) return ui.stack { ui.stars { id = "five", max = 5 } } end,
  configure = function() end,
  handle = function(action, store)
    if action.type == "rate" then
      store:update(function(s) if s.rating < action.max then s.rating = s.rating + 1 end end)
    end
  end,
}
