return {
  name = "rating",
  version = "0.3.1",
  api_version = "0.2.0",
  description = "Stars: a rating component and a review unit renderer.",
  provides = { components = { "stars" }, units = { "review" } },
}
