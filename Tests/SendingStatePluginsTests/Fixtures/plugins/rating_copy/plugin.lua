return {
  name = "rating2",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "Another stars component.",
  provides = { components = { "stars" } },
}
