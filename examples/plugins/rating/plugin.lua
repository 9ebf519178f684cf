-- The rating plugin: a ui.stars component and a renderer for server-driven "review" units.
--
--   sendingstate run examples/shop/shop.lua --data examples/shop/reviews.json \
--     --plugin examples/plugins/rating --send 'tap ana.helpful'
return {
  name = "rating",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "Star ratings: ui.stars, and a renderer for review units.",
  provides = {
    components = { "stars" },
    units = { "review" },
  },
}
