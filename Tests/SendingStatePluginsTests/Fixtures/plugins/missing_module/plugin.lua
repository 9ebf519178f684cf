return {
  name = "missing_module",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "Names a module it does not ship.",
  provides = { modules = { "helpers" } },
}
