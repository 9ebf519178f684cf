return {
  name = "first",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "Marks each action with 'one' on its way to handle.",
  provides = { middleware = { "one" } },
}
