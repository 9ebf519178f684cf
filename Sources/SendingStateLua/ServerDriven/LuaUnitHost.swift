import SendingState
import SendingStateHeadless

/// The host of one server-driven unit: configured once with the unit's data (so its senders'
/// state is the data), with its own `events`; its actions go to the screen's handler.
@MainActor
public final class LuaUnitHost: View, Configurable, EventForwardingProvider {
  /// The unit this host renders.
  public let unit: ServerUnit
  var views: LuaRef?
  var viewsByID: [String: View] = [:]
  var configure: LuaRef?
  var registrations: [LuaEventRegistration] = []
  weak var screen: LuaScreen?

  init(unit: ServerUnit, id: String) {
    self.unit = unit
    super.init(id: id)
  }

  /// `"unit"`.
  public override var kind: String { "unit" }

  /// `type`.
  public override var renderProperties: [RenderProperty] {
    [.init("type", .string(unit.unitType))]
  }

  /// Units are configured by the screen's configure (with data and state); nothing to do here.
  public var configurer: (LuaUnitHost, LuaValue) -> Void { { _, _ in } }

  /// The unit's `events`, as a forwarding tree.
  public var eventForwarder: any EventForwardable {
    LuaScreen.forwardingTree(for: registrations, screen: screen)
  }
}

/// A stack of server-driven sections (`ui.sections { id = … }`).
@MainActor
public final class SectionsView: StackView {
  /// `"sections"`.
  public override var kind: String { "sections" }
}
