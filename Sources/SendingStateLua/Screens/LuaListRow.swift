import SendingState
import SendingStateHeadless

/// A row of a Lua list: built once by the list's `row(ui)`, reused as the list scrolls, with
/// its own `events`; the engine configures it with its item and resolves its callbacks' item.
@MainActor
public final class LuaListRow: ListRow, EngineEventHost {
  var forwarding: EngineForwarding?

  /// Creates an empty row (the engine builds its content).
  public required init() {
    super.init()
  }

  /// The row's `events`, as a forwarding tree built once per row.
  public var eventForwarder: any EventForwardable { engineTree }
}
