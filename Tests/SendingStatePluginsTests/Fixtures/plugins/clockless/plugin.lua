return {
  name = "clockless",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "Reads the wall clock without the clock capability.",
  provides = { modules = { "stamp" }, middleware = { "stamp" } },
}
