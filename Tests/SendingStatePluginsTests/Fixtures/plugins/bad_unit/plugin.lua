return {
  name = "bad_unit",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "A unit renderer that returns no module.",
  provides = { units = { "broken" } },
}
