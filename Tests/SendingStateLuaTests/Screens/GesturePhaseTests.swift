import Foundation
import SendingState
import SendingStateHeadless
import Testing

@testable import SendingStateLua

@Suite("Screens: gesture phases")
@MainActor
struct GesturePhaseTests {
  @Test("one gesture's phases reach one item, though a commit between them re-binds the rows")
  func pinnedItem() throws {
    let screen = try LuaScreen(path: screenFixture("gestures.lua"))
    let step = try screen.row("items", 3).gesture("name", "longPress", ["states": ["began", "ended"]])
    // `began` moved "c" to the top, so the row that was pressed now shows "b"; `ended` still
    // belongs to "c".
    #expect(step.actions.map { $0["phase"] } == ["began", "ended"])
    #expect(screen.state["log"] == ["began c", "ended c"])
    #expect(try screen.property("text", of: "name", inRow: ("items", 3)) == "b")
    // The next gesture on that row reaches the item it shows now.
    try screen.row("items", 3).gesture("name", "longPress", ["states": ["began", "ended"]])
    #expect(screen.state["log"] == ["began c", "ended c", "began b", "ended b"])
  }

  @Test("callbacks receive the phase; control events receive their name")
  func phases() throws {
    let screen = try LuaScreen(path: screenFixture("gestures.lua"))
    try screen.row("items", 1).gesture("name", "longPress", ["states": ["began", "cancelled"]])
    // The mapping delivers began and ended only (its `states`); a cancelled press stays pinned to
    // nothing afterwards.
    #expect(screen.state["log"] == ["began a"])
  }
}
