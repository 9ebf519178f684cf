-- A plugin beside the coverage fixture's screen: its component's lines count too.
return {
  name = "badge",
  version = "1.0.0",
  api_version = "0.2.0",
  description = "ui.badge: a count with a sign.",
  provides = {
    components = { "badge" },
  },
}
