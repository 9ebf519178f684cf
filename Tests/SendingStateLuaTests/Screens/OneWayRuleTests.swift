import Foundation
import SendingState
import SendingStateHeadless
import Testing

@testable import SendingStateLua

func screenFixture(_ name: String) -> String { fixturePath("screens/\(name)") }

/// Runs `body` and returns the ScriptError it throws.
@MainActor
func scriptError(_ body: () throws -> Void) -> ScriptError? {
  do {
    try body()
    return nil
  } catch let error as ScriptError {
    return error
  } catch {
    Issue.record("expected a ScriptError, got \(error)")
    return nil
  }
}

@Suite("Screens: one-way rules and nothing lost")
@MainActor
struct OneWayRuleTests {
  /// A rules screen with an observer counting notifications.
  @MainActor
  final class Observed {
    let screen: LuaScreen
    var notifications = 0
    var token: StateObservationToken?
    init() throws {
      screen = try LuaScreen(path: screenFixture("rules.lua"))
      token = screen.observe { [unowned self] _ in self.notifications += 1 }
      notifications = 0
    }
  }

  /// Checks that a failure changed nothing: state, views, observers.
  func expectUnchanged(_ observed: Observed, state: LuaValue, count: String) throws {
    #expect(observed.screen.state == state)
    #expect((try observed.screen.view("count") as? Label)?.text == count)
    #expect(observed.notifications == 0)
  }

  @Test("writing state inside configure is an error; the state stays as it was")
  func stateReadOnlyInConfigure() throws {
    let observed = try Observed()
    let error = try #require(scriptError { try observed.screen.perform(action: "to99") })
    #expect(error.message == "state is read-only in configure")
    #expect(error.chunk?.hasSuffix("rules.lua") == true && error.line == 16)
    #expect(error.context == "configure")
    try expectUnchanged(observed, state: ["count": 1, "log": []], count: "1")
  }

  @Test("event callbacks cannot mutate state or views")
  func callbacksAreReadOnly() throws {
    let observed = try Observed()
    let state = try #require(scriptError { try observed.screen.tap("poke") })
    #expect(state.message == "state is read-only in event callbacks (return actions instead)")
    #expect(state.line == 22 && state.context == "event 'touchUpInside' on 'poke'")
    let view = try #require(scriptError { try observed.screen.tap("touch") })
    #expect(view.message == "views are read-only in event callbacks (return actions; views change in configure)")
    #expect(view.line == 25)
    #expect((try observed.screen.view("touch") as? Button)?.title == "touch")
    try expectUnchanged(observed, state: ["count": 1, "log": []], count: "1")
  }

  @Test("writing views or store.state outside configure is an error")
  func viewsAndStoreStateReadOnly() throws {
    let observed = try Observed()
    let error = try #require(scriptError { try observed.screen.perform(action: "viewwrite") })
    #expect(error.message == "store.state is read-only; change it with store:update(fn) or store:set(t)")
    #expect(error.line == 45 && error.context == "handle (action 'viewwrite')")
    try expectUnchanged(observed, state: ["count": 1, "log": []], count: "1")
  }

  @Test("a store update inside configure is an error")
  func noStoreUpdatesInConfigure() throws {
    let screen = try LuaScreen(path: screenFixture("configure_updates_store.lua"))
    let error = try #require(scriptError { try screen.tap("b") })
    #expect(error.message == "store updates are not allowed in configure (configure only reads state)")
    #expect(error.line == 8)
    #expect(screen.state == ["n": 1])
  }

  @Test("actions dispatched while handling are queued and handled in order (FIFO)")
  func fifo() throws {
    let screen = try LuaScreen(path: screenFixture("rules.lua"), options: .init(state: ["count": 5, "log": []]))
    let step = try screen.tap("go")
    #expect(step.actions == [["type": "chain"], ["type": "first"], ["type": "second"]])
    #expect(screen.state["log"] == ["chain", "first", "second"])
  }

  @Test("a rejected or failing update changes nothing and names file:line", arguments: [
    ("schema", 40, "state.count: expected integer, got string \"many\" (schema)", ScriptError.Kind.typeMismatch),
    ("boom", 42, "handler failed", .runtime),
    ("badset", 47, "bad argument #2 to 'set'", .typeMismatch),
  ])
  func failingUpdates(action: String, line: Int, message: String, kind: ScriptError.Kind) throws {
    let observed = try Observed()
    try observed.screen.tap("go")
    observed.notifications = 0
    let error = try #require(scriptError { try observed.screen.perform(action: .string(action)) })
    #expect(error.kind == kind)
    #expect(error.line == line, "\(error)")
    #expect(error.message.contains(message), "\(error.message)")
    #expect(error.context?.hasPrefix("handle (action '\(action)')") == true || error.context == "store:update")
    try expectUnchanged(observed, state: ["count": 2, "log": []], count: "2")
  }

  @Test("the host's core path cannot set a state the engine never checked")
  func hostInvalidateStateCannotBypassTheEngine() throws {
    let screen = try LuaScreen(path: examplePath("counter/counter.lua"))
    let before = screen.state
    // An embedder (or a tool) reaching for the core's own write-back on the screen's host: once,
    // this wrote through the store straight into the committed state, skipping the schema,
    // the freeze and the atomic commit.
    screen.host.ss.invalidateState { (_: ScreenState) in ScreenState(node: nil) }
    #expect(screen.state == before)
    #expect(screen.store.state.value == before)
    try screen.tap("plus")
    #expect(screen.state == ["title": "Product", "count": 2])
    #expect((try screen.view("count") as? Label)?.text == "2")
  }
  @Test("actions are read-only in handle and middleware; a new table passes on a changed one")
  func actionsAreReadOnly() throws {
    var options = LuaScreen.Options()
    options.middleware = [
      .init(
        name: "shape", plugin: "shaper", file: "shaper/middleware/shape.lua",
        source: """
          return function(action)
            if action.type == "twice" then action.amount = 2 end
            if action.type == "three" then return { type = "add", amount = 3 } end
            return action
          end
          """)
    ]
    let screen = try LuaScreen(path: screenFixture("readonly_action.lua"), options: options)
    let handled = try #require(scriptError { try screen.perform(action: "poke") })
    #expect(handled.message == "the action is read-only (build a new table for a changed action; change state with store:update)")
    #expect(handled.chunk?.hasSuffix("readonly_action.lua") == true && handled.line == 9)
    let middleware = try #require(scriptError { try screen.perform(action: "twice") })
    #expect(middleware.message == handled.message)
    #expect(middleware.chunk?.hasSuffix("shape.lua") == true && middleware.line == 2)
    #expect(screen.state == ["count": 0] && screen.actionLog.isEmpty)
    try screen.perform(action: "three")
    #expect(screen.state == ["count": 3])
    #expect((try screen.view("count") as? Label)?.text == "3")
  }

}

@Suite("Screens: faults name file:line and the callback")
@MainActor
struct ScreenFaultTests {
  @Test("an error in layout")
  func layoutError() throws {
    let error = try #require(scriptError { _ = try LuaScreen(path: screenFixture("layout_error.lua")) })
    #expect(error.line == 5 && error.context == "layout")
    #expect(error.message == "label has no property 'txt' (properties: alpha, enabled, hidden, id, kind, text)")
  }

  @Test("an error in the first configure")
  func configureError() throws {
    let error = try #require(scriptError { _ = try LuaScreen(path: screenFixture("configure_error.lua")) })
    #expect(error.line == 6 && error.context == "configure")
    #expect(error.message == "attempt to index a nil value (field 'details')")
  }

  @Test("an error in an event callback; state unchanged")
  func callbackError() throws {
    let screen = try LuaScreen(path: screenFixture("callback_error.lua"))
    let error = try #require(scriptError { try screen.tap("b") })
    #expect(error.line == 8 && error.context == "event 'touchUpInside' on 'b'")
    #expect(screen.state == ["n": 1])
    #expect(screen.actionLog.isEmpty)
  }

  @Test("contract errors name the file and the field")
  func contract() throws {
    let missing = try #require(scriptError { _ = try LuaScreen(path: screenFixture("missing_layout.lua")) })
    #expect(missing.message == "screen field 'layout' must be a function (got nil)")
    #expect(missing.chunk?.hasSuffix("missing_layout.lua") == true)
    let notTable = try #require(scriptError { _ = try LuaScreen(path: screenFixture("not_a_table.lua")) })
    #expect(notTable.message == "the screen script must return a table (got number)")
  }

  @Test("events on the wrong sender, and unknown view ids, are errors naming them")
  func badEventsAndIDs() throws {
    let event = try #require(scriptError { _ = try LuaScreen(path: screenFixture("bad_event.lua")) })
    #expect(event.line == 6 && event.context == "events")
    #expect(event.message == "'l' (label) is not a control, so it has no 'touchUpInside' event (use a gesture such as 'tap')")
    let id = try #require(scriptError { _ = try LuaScreen(path: screenFixture("unknown_id.lua")) })
    #expect(id.line == 5)
    #expect(id.message == "no view with id 'titel' in the screen (ids: root, title)")
  }
}

@Suite("Screens: a failing row configure loses nothing")
@MainActor
struct RowFailureTests {
  @Test("a commit whose rows would fail is refused before anything changes")
  func rowFailureIsAtomic() throws {
    let screen = try LuaScreen(path: screenFixture("row_failure.lua"))
    var notified = 0
    let token = screen.observe { _ in notified += 1 }
    notified = 0
    let error = try #require(scriptError { try screen.tap("add") })
    #expect(error.line == 11 && error.message == "cannot show bad")
    #expect(error.context == "configure row 3 of 'items'")
    #expect(screen.state["items"] == [["name": "a"], ["name": "b"]])
    #expect(notified == 0)
    let list = try #require(try screen.view("items") as? ListView)
    #expect(list.numberOfRows == 2)
    token.cancel()
  }
}
