import Foundation
import SendingStateHeadless
import SendingStateLua
import Testing

@testable import SendingStateTools

@Suite("Screen sessions, REPL, checker")
@MainActor
struct ToolsTests {
  @Test("a session applies events and reports text and JSON")
  func session() throws {
    let session = try ScreenSession(path: repoPath("examples/counter/counter.lua"))
    let record = try session.apply(try EventCommand(parsing: "tap plus"))
    let text = session.text(for: record)
    #expect(text.hasPrefix("> tap plus\n  actions: increment\n  state:\n    count: 1 → 2\nstack#root"))
    var report = ScreenSession.jsonStart + session.json(step: record)
    session.jsonEnd(pending: 0) { report += $0 }
    let json = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
    #expect(Set(json.keys) == ["steps", "state", "tree", "warnings", "pending"])
    let steps = try #require(json["steps"] as? [[String: Any]])
    #expect(steps.first?["event"] as? String == "tap plus")
    #expect((steps.first?["actions"] as? [[String: Any]])?.first?["type"] as? String == "increment")
    #expect((json["state"] as? [String: Any])?["count"] as? Int == 2)
    #expect((json["tree"] as? [String: Any])?["kind"] as? String == "stack")
  }

  @Test("reload keeps the state; a broken script keeps the old one running")
  func reload() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-reload-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("screen.lua").path
    let original = try String(contentsOfFile: repoPath("examples/counter/counter.lua"), encoding: .utf8)
    try original.write(toFile: path, atomically: true, encoding: .utf8)
    let session = try ScreenSession(path: path)
    try session.apply(.tap("plus"))
    let old = session.screen
    try original.replacingOccurrences(of: "ui.label { id = \"title\" }", with: "ui.label { id = \"title\", alpha = 0.5 }")
      .write(toFile: path, atomically: true, encoding: .utf8)
    try session.reload()
    #expect(session.screen !== old && old.isClosed)
    #expect(session.screen.state["count"] == 2)
    #expect(session.tree.contains("label#title text=\"Product\" alpha=0.5"))
    try "return {".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: ToolError.self) { try session.reload() }
    #expect(!session.screen.isClosed && session.screen.state["count"] == 2)
    try session.apply(.tap("plus"))
    #expect(session.screen.state["count"] == 3)
  }

  @Test("the REPL takes EVENTs and its own commands")
  func repl() async throws {
    let repl = Repl(session: try ScreenSession(path: repoPath("examples/counter/counter.lua")))
    #expect(await repl.handle("tap plus").output.contains("count: 1 → 2"))
    #expect(await repl.handle("state").output == #"{"count":2,"title":"Product"}"#)
    #expect(await repl.handle("actions").output == "1. increment")
    #expect(await repl.handle("tree").output.hasPrefix("stack#root"))
    #expect(await repl.handle("help").output.contains("reload"))
    let bad = await repl.handle("tap nope")
    #expect(bad.isError && bad.output.contains("no view with id 'nope'"))
    #expect(await repl.handle("# a comment").output.isEmpty)
    _ = await repl.handle("quit")
    #expect(repl.finished)
  }

  @Test("in a terminal the REPL does not print the typed event again; piped, each event is printed once")
  func replEcho() async throws {
    let repl = Repl(session: try ScreenSession(path: repoPath("examples/counter/counter.lua")))
    #expect(await repl.handle("tap plus").output.hasPrefix("> tap plus\n  actions: increment\n"))
    repl.echoesEvents = false
    #expect(await repl.handle("tap plus").output.hasPrefix("  actions: increment\n  state:\n    count: 2 → 3\n"))
  }

  @Test("row completion reads each list's row ids from a row on screen")
  func rowIDs() throws {
    let session = try ScreenSession(path: repoPath("examples/products/products.lua"))
    let rows = session.screen.rowIDsByList
    #expect(rows == ["items": ["favorite", "line", "name", "price", "quantity"]], "\(rows)")
    #expect(Repl.completions(after: ["row"], ids: session.screen.ids, rows: rows) == ["items"])
    #expect(Repl.completions(after: ["row", "items", "1", "tap"], ids: session.screen.ids, rows: rows) == rows["items"])
    // A list with no row on screen (the tasks example starts empty) has none.
    #expect(try ScreenSession(path: repoPath("examples/tasks/tasks.lua")).screen.rowIDsByList == ["tasks": []])
  }

  @Test("check finds nothing wrong in the examples and every problem in the fixtures")
  func checker() throws {
    #expect(try Checker.check(paths: [repoPath("examples")]).isEmpty)
    let problems = try Checker.check(paths: [toolFixture("broken_screen.lua"), toolFixture("syntax_error.lua")])
    #expect(problems.count == 2)
    #expect(problems[0].description.hasSuffix("broken_screen.lua:6: in configure: attempt to concatenate a nil value"))
    #expect(problems[1].description.contains("syntax_error.lua:2:"))
    #expect(throws: ToolError.self) { try Checker.check(paths: ["no/such/folder"]) }
  }

  @Test("check fires each control's events once, with effects refused, and warns of a callback that returns nothing")
  func checkerDryRun() throws {
    let problems = try Checker.check(paths: [toolFixture("silent_callback.lua")])
    #expect(problems.map(\.description) == [
      toolFixture("silent_callback.lua")
        + ":8: warning: the callback for event 'valueChanged' on 'on' returned nothing, so the event did nothing; return an action (or false when that is meant)"
    ])
  }

}

