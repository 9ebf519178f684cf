/// The Lua half of the screen engine (trusted host code, loaded once per screen runtime):
/// views and their checked writes, scopes and registrations, and the one pipeline an event
/// runs through (see `ScreenEngine`).
enum KernelEngineSource {
  static let source = HostCode.text("kernel/engine.lua")
}
