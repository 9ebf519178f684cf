import SendingState
import SendingStateHeadless

/// The binder of a Lua screen: a headless view whose input is the screen's state.
///
/// It is what the screen's ``BindingStore`` applies to. Its configurer runs the script's
/// `configure` through the core (so senders receive the state and write-backs reach the store),
/// and its forwarding tree is built from the script's `events` registrations.
@MainActor
public final class LuaScreenHost: View, Configurable, EventForwardingProvider {
  weak var screen: LuaScreen?
  var registrations: [LuaEventRegistration] = []

  init() {
    super.init(id: nil)
  }

  /// `"screen"`.
  public override var kind: String { "screen" }

  /// Runs the script's `configure` (or applies the writes it already prepared).
  public var configurer: (LuaScreenHost, LuaValue) -> Void {
    { host, state in host.screen?.runConfigure(state) }
  }

  /// The script's `events`, as a forwarding tree.
  public var eventForwarder: any EventForwardable {
    LuaScreen.forwardingTree(for: registrations, screen: screen)
  }
}
