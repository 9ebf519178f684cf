return {
  name = "wrong_api",
  version = "2.0.0",
  api_version = "0.1.0",
  description = "Written for an older host.",
}
