return {
  name = "missing_unit",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "Names a unit renderer it does not ship.",
  provides = {
    units = { "ghost" },
  },
}
