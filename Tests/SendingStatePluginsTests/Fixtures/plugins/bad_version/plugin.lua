return {
  name = "bad_version",
  description = "A version that is not semantic.",
  version = "1.0",
  api_version = "0.2.0",
}
