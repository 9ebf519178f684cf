/// The Lua half of the engine's state (trusted host code, loaded once per screen runtime):
/// frozen values that scripts read but cannot change, shared between versions; drafts for
/// `store:update`; the data rules every value in state follows; and the schema.
enum KernelStateSource {
  static let source = HostCode.text("kernel/state.lua")
}
