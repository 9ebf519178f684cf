return {
  name = "unknown_capability",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "Asks for the file system.",
  capabilities = { "timers", "files" },
}
