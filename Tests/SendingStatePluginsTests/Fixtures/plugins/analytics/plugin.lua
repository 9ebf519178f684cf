return {
  name = "analytics",
  version = "1.2.0",
  api_version = "0.2.0",
  description = "Records the actions a screen handles.",
  provides = { modules = { "events" }, middleware = { "record" } },
  capabilities = { "clock", net = { "collect.example.com", "*.cdn.example.com" } },
}
