import SendingState
import SendingStateHeadless

/// A row of a Lua list: built once by the list's `row(ui)`, configured with its item on every
/// reuse, with its own `events`; row callbacks receive the item as their state.
@MainActor
public final class LuaListRow: ListRow, Configurable, EventForwardingProvider {
  weak var screen: LuaScreen?
  weak var binding: LuaListBinding?
  var views: LuaRef?
  var viewsByID: [String: View] = [:]
  var registrations: [LuaEventRegistration] = []

  /// Creates an empty row (the list builds its content).
  public required init() {
    super.init()
  }

  /// Runs the list's row `configure` with this row's views and its item.
  public var configurer: (LuaListRow, LuaValue) -> Void {
    { row, item in row.screen?.configureRow(row, item: item) }
  }

  /// The row's `events`, as a forwarding tree.
  public var eventForwarder: any EventForwardable {
    LuaScreen.forwardingTree(for: registrations, screen: screen)
  }
}

/// A list's Lua functions and items; its data source dequeues and configures rows.
@MainActor
final class LuaListBinding: ListDataSource {
  weak var screen: LuaScreen?
  unowned let list: ListView
  let rowBuilder: LuaRef
  let rowConfigure: LuaRef?
  let rowEvents: LuaRef?
  var items: [LuaValue] = []

  init(list: ListView, rowBuilder: LuaRef, rowConfigure: LuaRef?, rowEvents: LuaRef?) {
    self.list = list
    self.rowBuilder = rowBuilder
    self.rowConfigure = rowConfigure
    self.rowEvents = rowEvents
  }

  func numberOfRows(in list: ListView) -> Int { items.count }

  func list(_ list: ListView, rowAt index: Int) -> ListRow {
    let row = list.dequeueReusableRow(withIdentifier: "row", for: index)
    if let row = row as? LuaListRow {
      row.ss.configure(items[index])
    }
    return row
  }
}
