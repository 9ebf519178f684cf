-- The analytics plugin: counts the actions a screen dispatches, by type.
--
-- A screen opts in by keeping an `analytics` table in its state (schema: analytics = "table");
-- the `record` middleware counts every action there before `handle` sees it, and the `report`
-- module turns the counts into a line of text.
--
--   sendingstate run examples/plugins/analytics/demo.lua --plugin examples/plugins/analytics \
--     --send 'tap plus' --send 'tap plus'
return {
  name = "analytics",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "Counts the actions a screen dispatches, by type.",
  provides = {
    modules = { "report" },
    middleware = { "record" },
  },
}
