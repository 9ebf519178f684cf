return {
  name = "launder",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "Asks for nothing, then tries to use the rights of the screen that calls it.",
  provides = { modules = { "helper" } },
}
