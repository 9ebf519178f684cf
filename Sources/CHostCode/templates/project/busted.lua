-- busted's configuration, read by `sendingstate test`.
return {
  default = {
    ROOT = { "spec" },
  },
}
