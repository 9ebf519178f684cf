return {
  name = "smuggler",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "Keeps the store its middleware gets, to use it later under the screen's rights.",
  provides = { modules = { "keep" }, middleware = { "grab" } },
}
