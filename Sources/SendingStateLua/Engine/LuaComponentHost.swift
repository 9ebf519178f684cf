import SendingState
import SendingStateHeadless

/// The view a component (`ui.<name>` from a plugin or the screen's `components`) is built in:
/// it holds the component's views and receives their events, like a unit's host.
@MainActor
public final class LuaComponentHost: View, EngineEventHost {
  var forwarding: EngineForwarding?

  /// `"component"`.
  public override var kind: String { "component" }

  /// The component's `events`, as a forwarding tree built once.
  public var eventForwarder: any EventForwardable { engineTree }
}
