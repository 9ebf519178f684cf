import SendingState
import SendingStateHeadless

/// The host of one server-driven unit: its content, rendered by the screen's `units` module of
/// its type (configured with the unit's data and the screen's state) or by a Swift renderer,
/// and the registrations of its `events`, whose callbacks receive the unit's data.
@MainActor
public final class LuaUnitHost: View, EngineEventHost {
  /// The unit this host renders.
  public let unit: ServerUnit
  var forwarding: EngineForwarding?

  init(unit: ServerUnit, id: String?) {
    self.unit = unit
    super.init(id: id)
  }

  /// `"unit"`.
  public override var kind: String { "unit" }

  /// `type`.
  public override var renderProperties: [RenderProperty] {
    [.init("type", .string(unit.unitType))]
  }

  /// The unit's `events`, as a forwarding tree built once.
  public var eventForwarder: any EventForwardable { engineTree }
}

/// A stack of server-driven sections (`ui.sections { id = … }`).
@MainActor
public final class SectionsView: StackView {
  /// `"sections"`.
  public override var kind: String { "sections" }
}
