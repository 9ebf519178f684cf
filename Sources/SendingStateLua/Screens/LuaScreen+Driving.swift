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

  /// Runs one interaction (a tap, typing, a gesture) and reports what it did. Each UI event it
  /// causes is an event of its own; the first that fails is thrown (the ones before it stay
  /// committed).
  func step(_ interaction: () throws -> Void) throws -> Step {
    guard !isClosed else { throw ScriptError(kind: .runtime, message: "the screen is closed") }
    let before = engine.committed
    let outcomes = try engine.collect(interaction)
    return Step(
      actions: outcomes.flatMap(\.actions), beforeState: before, afterState: engine.committed,
      why: Silence.kept(outcomes.lazy.flatMap(\.quiet)))
  }

  /// Runs a driver's interaction with `target` (named `id` for messages); when no UI event
  /// reached the script, the step says why (see ``Silence``). `interaction` returns whether it
  /// happened at all (a switch set to the value it has does not).
  func step(
    on target: View, id: String, in owner: String, _ asked: @autoclosure () -> Silence.Asked,
    _ interaction: () throws -> Bool
  ) throws -> Step {
    guard !isClosed else { throw ScriptError(kind: .runtime, message: "the screen is closed") }
    let before = engine.committed
    var happened = true
    let outcomes = try engine.collect { happened = try interaction() }
    var step = Step(
      actions: outcomes.flatMap(\.actions), beforeState: before, afterState: engine.committed,
      why: Silence.kept(outcomes.lazy.flatMap(\.quiet)))
    if outcomes.isEmpty {
      step.why = Silence(engine: engine).reasons(target: target, id: id, in: owner, asked: asked(), happened: happened)
    }
    return step
  }

  /// Dispatches `action` to the screen's `handle` as if a sender had produced it.
  ///
  /// A bare string is shorthand for `{ type = s }`.
  @discardableResult
  public func perform(action: LuaValue) throws -> Step {
    guard !isClosed else { throw ScriptError(kind: .runtime, message: "the screen is closed") }
    let before = engine.committed
    let outcome = try engine.send(.action(action))
    return Step(actions: outcome.actions, beforeState: before, afterState: engine.committed, why: outcome.quiet)
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
    if list.row(at: index - 1) == nil { _ = try step { _ = list.simulateScroll(toRow: index - 1) } }
    guard let row = list.row(at: index - 1) as? LuaListRow else {
      throw ScreenUsageError.rowOutOfRange(listID, index: index, count: list.numberOfRows)
    }
    return ScreenDriver(screen: self, views: engine.rowViews(row), owner: "row \(index) of '\(listID)'")
  }

  /// The lists of the screen, each with the ids of the views in its rows (read from a row on
  /// screen, without scrolling; none for a list showing no row), for completing `row` commands.
  public var rowIDsByList: [String: [String]] {
    var result: [String: [String]] = [:]
    for (id, view) in viewsByID {
      guard let list = view as? ListView else { continue }
      let row = list.row(at: list.firstVisibleIndex) as? LuaListRow
      result[id] = row.map { engine.rowViews($0).keys.sorted() } ?? []
    }
    return result
  }

  /// The methods of the `store` scripts get in `handle`, as installed (tools check them
  /// against the stubs).
  public var installedStoreMethods: [String] { engine.storeMethodNames() }

  /// The `ui.<kind>` builders, as installed.
  public var installedBuilders: [String] { engine.builderNames() }

  /// The current value of property `name` of view `id` (in row `index` of list `list` when
  /// given), as scripts see it.
  ///
  /// - Throws: ``ScreenUsageError`` for an unknown id or property.
  public func property(_ name: String, of id: String, inRow row: (list: String, index: Int)? = nil) throws -> LuaValue {
    let target = try row.map { try self.row($0.list, $0.index).view(id) } ?? view(id)
    let description = ViewRegistry.description(of: target)
    guard let property = description.property(name) else {
      let names = description.properties.map(\.name).sorted().joined(separator: ", ")
      throw ScreenUsageError.badValue("\(target.kind) '\(id)' has no property '\(name)' (properties: \(names))")
    }
    return engine.value(of: name, in: target) ?? property.get(target)
  }

  /// Opens the script again (after an edit, say) with this screen's current state and options,
  /// hands the new screen the effects still running (their results reach it), and closes this
  /// one. If the script fails to load, or the state cannot be read to hand over, this screen
  /// keeps running, effects included, and the error is thrown.
  public func reloaded(options: Options? = nil) throws -> LuaScreen {
    var reopened = options ?? self.options
    reopened.state = try readState()
    let fresh = try LuaScreen(path: path, options: reopened)
    fresh.engine.adoptEffects(from: engine)
    close()
    return fresh
  }

  /// Stops the screen: handlers are removed, effects are cancelled, and no callback of it runs
  /// again.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    engine.close()
  }
}
