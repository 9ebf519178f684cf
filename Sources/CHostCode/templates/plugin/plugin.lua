-- The PLUGIN_NAME plugin's manifest. Check it with: sendingstate plugins check <this folder>
return {
  name = "PLUGIN_NAME",
  version = "0.1.0",
  api_version = "API_VERSION",   -- the host API it is written for
  description = "A PLUGIN_NAME component: a label and a button.",
  provides = {
    components = { "PLUGIN_NAME" },   -- components/PLUGIN_NAME.lua, built with ui.PLUGIN_NAME { … }
    -- modules = { "util" },       -- util.lua, required as "PLUGIN_NAME.util"
    -- units = { "card" },         -- units/card.lua, renders payload units of type "card"
    -- middleware = { "log" },     -- middleware/log.lua, sees every action before handle
  },
  capabilities = {},                -- "timers", net = { "api.example.com" }, …
}
