return {
  name = "bad_syntax",
  version = "1.0.0"
  api_version = "0.2.0",
}
