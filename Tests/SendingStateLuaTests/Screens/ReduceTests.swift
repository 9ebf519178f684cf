import Foundation
import SendingStateHeadless
import Testing

@testable import SendingStateLua

@Suite("reduce: a screen's pure alternative to handle")
@MainActor
struct ReduceTests {
  func open() throws -> (LuaScreen, VirtualClock) {
    let clock = VirtualClock()
    var options = LuaScreen.Options()
    options.clock = clock
    return (try LuaScreen(path: screenFixture("reducer.lua"), options: options), clock)
  }

  @Test("the next state and the effects it returns go through the store: validated, queued, timed")
  func reduces() async throws {
    let (screen, _) = try open()
    try screen.perform(action: "increment")
    #expect(screen.state["count"] == 1 && screen.pendingEffects == 1)
    #expect((try screen.view("count") as? Label)?.text == "1")
    try await screen.advance(by: 1)
    #expect(screen.state["ticks"] == 1)
    try screen.perform(action: "twice")  // nil: state unchanged; two actions queued after it
    #expect(screen.state["count"] == 3 && screen.pendingEffects == 2)
    #expect(screen.actionLog.map { $0["type"] } == ["increment", "tick", "twice", "increment", "increment"])
    screen.close()
  }

  @Test("every mistake names reduce's file:line and changes nothing",
    arguments: [
      ("mutate", 15, "state is read-only"),
      ("badDelay", 7, "bad argument #1 to 'after' (seconds must be a finite number"),
      ("badEffect", 7, "effect 1 of reduce is not one of { after = s, action = a }"),
      ("badState", 7, "state.count: expected integer"),
      ("notTable", 7, "reduce must return the next state (a table) or nil, got integer 42"),
    ])
  func mistakes(_ action: String, _ line: Int, _ message: String) throws {
    let (screen, _) = try open()
    try screen.perform(action: "increment")
    let before = screen.state
    let error = #expect(throws: ScriptError.self) { try screen.perform(action: .string(action)) }
    #expect(error?.line == line, "\(String(describing: error))")
    #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    #expect(error?.context?.hasPrefix("reduce (action '\(action)')") == true, "\(String(describing: error?.context))")
    #expect(screen.state == before && screen.pendingEffects == 1)
    screen.close()
  }

  @Test("a screen declares handle or reduce, not both")
  func notBoth() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-reduce-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("both.lua").path
    try """
      return { state = {}, layout = function(ui) return ui.label {} end, configure = function() end,
        handle = function() end, reduce = function() end }
      """.write(toFile: path, atomically: true, encoding: .utf8)
    let error = #expect(throws: ScriptError.self) { try LuaScreen(path: path) }
    #expect(error?.message.hasPrefix("a screen declares handle or reduce, not both") == true)
  }
}
