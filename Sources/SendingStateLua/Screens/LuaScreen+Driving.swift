import CLua
import CLuaShim
import Foundation
import SendingState
import SendingStateHeadless

/// Driving a screen as a user would, one step at a time.
extension LuaScreen {
  // MARK: - Driving

  /// The view with `id`, or a usage error listing the ids.
  public func view(_ id: String) throws -> View {
    guard let view = viewsByID[id] else { throw ScreenUsageError.unknownView(id, known: ids) }
    return view
  }

  /// Runs one interaction and reports what it did; throws the first script error it caused.
  func step(_ interaction: () throws -> Void) throws -> Step {
    let before = state
    let firstAction = actionLog.count
    pendingError = nil
    try interaction()
    try throwPending()
    return Step(actions: Array(actionLog[firstAction...]), before: before, after: state)
  }

  /// Dispatches `action` to the screen's `handle` as if a sender had produced it.
  ///
  /// A bare string is shorthand for `{ type = s }`.
  @discardableResult
  public func perform(action: LuaValue) throws -> Step {
    let actions = try ScreenEvents.actions(from: action, context: "perform")
    return try step { actions.forEach(dispatch) }
  }

  /// A driver for the screen's own views (``tap(_:)`` and friends use it; rows have theirs).
  public var driver: ScreenDriver { ScreenDriver(screen: self, views: viewsByID) }

  /// Taps `id`: `touchUpInside` (a real tap) on a control, a tap gesture on another view.
  @discardableResult
  public func tap(_ id: String) throws -> Step { try driver.tap(id) }

  /// Fires the event `eventName` (a control event or a gesture name) on `id`.
  @discardableResult
  public func send(_ id: String, _ eventName: String) throws -> Step {
    try driver.send(id, eventName)
  }

  /// Sets the value of `id` as a user would (switch on/off, slider/stepper value, segment
  /// 1-based, text field text); fires `valueChanged` only when the value changes.
  @discardableResult
  public func set(_ id: String, _ value: LuaValue) throws -> Step {
    try driver.set(id, value)
  }

  /// Types `text` into the text field `id` (editing events).
  @discardableResult
  public func type(_ id: String, _ text: String) throws -> Step {
    try driver.type(id, text)
  }

  /// Performs the gesture `kind` on `id` with parameters (`taps`, `touches`, `direction`, `edge`,
  /// `duration`, `scale`, `rotation`, `x`, `y`).
  @discardableResult
  public func gesture(_ id: String, _ kind: String, _ parameters: [String: LuaValue] = [:]) throws -> Step {
    try driver.gesture(id, kind, parameters)
  }

  /// A driver for row `index` (1-based) of the list `listID`, scrolling it into view if needed.
  public func row(_ listID: String, _ index: Int) throws -> ScreenDriver {
    guard let list = viewsByID[listID] as? ListView else {
      if viewsByID[listID] != nil { throw ScreenUsageError.notAList(listID) }
      throw ScreenUsageError.unknownView(listID, known: ids)
    }
    guard index >= 1, index <= list.numberOfRows else {
      throw ScreenUsageError.rowOutOfRange(listID, index: index, count: list.numberOfRows)
    }
    if list.row(at: index - 1) == nil { list.simulateScroll(toRow: index - 1) }
    guard let row = list.row(at: index - 1) as? LuaListRow else {
      throw ScreenUsageError.rowOutOfRange(listID, index: index, count: list.numberOfRows)
    }
    return ScreenDriver(screen: self, views: row.viewsByID, owner: "row \(index) of '\(listID)'")
  }

  /// The methods of the `store` scripts get in `handle`, as installed (tools check them
  /// against the stubs).
  public var installedStoreMethods: [String] {
    _ = try? storeReference()
    return bridge.installedStoreMethods
  }

  /// The `ui.<kind>` builders, as installed.
  public var installedBuilders: [String] {
    (try? uiTable.value(path: "ui"))?.tableValue?.fields.keys.sorted() ?? []
  }

  /// The current value of property `name` of view `id` (in row `index` of list `list` when
  /// given), as scripts see it.
  ///
  /// - Throws: ``ScreenUsageError`` for an unknown id or property.
  public func property(_ name: String, of id: String, inRow row: (list: String, index: Int)? = nil) throws -> LuaValue {
    let target = try row.map { try self.row($0.list, $0.index).view(id) } ?? view(id)
    let names = ScreenViewTypes.properties(of: target.kind).map(\.name)
    guard names.contains(name) else {
      throw ScreenUsageError.badValue("\(target.kind) '\(id)' has no property '\(name)' (properties: \(names.sorted().joined(separator: ", ")))")
    }
    return ScreenViewTypes.get(target, name)
  }

  /// Stops the screen: handlers are removed, effects are cancelled, and no callback of it runs
  /// again.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    effects.values.forEach { $0.cancel() }
    effects.removeAll()
    host.ss.removeAllActionHandlers()
    host.registrations.removeAll()
    queue.clear()
  }
}
