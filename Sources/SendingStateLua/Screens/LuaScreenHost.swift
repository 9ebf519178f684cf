import SendingState
import SendingStateHeadless

/// The binder of a Lua screen: a headless view whose input is the screen's state.
///
/// It is what the screen's `BindingStore` applies to, and it hosts the registrations of the
/// script's `events`. Its configurer has nothing to do: the engine ran the script's
/// `configure` in the same event that produced the state, and applied its writes before the
/// state reached the store.
@MainActor
public final class LuaScreenHost: View, Configurable, EngineEventHost {
  var forwarding: EngineForwarding?

  init() {
    super.init(id: nil)
  }

  /// `"screen"`.
  public override var kind: String { "screen" }

  /// Nothing to do: the views already show the state (see the type's discussion).
  public var configurer: (LuaScreenHost, ScreenState) -> Void { { _, _ in } }

  /// The script's `events`, as a forwarding tree built once per declaration.
  public var eventForwarder: any EventForwardable { engineTree }
}
