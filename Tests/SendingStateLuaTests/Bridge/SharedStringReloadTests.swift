import Foundation
import Testing

@testable import SendingStateLua

@Suite("Shared strings cross both ways once: one long string named a thousand times")
@MainActor
struct SharedStringReloadTests {
  @Test("a state naming it as values and keys is read into Swift and pushed into a reloaded screen as one string (within the memory cap)")
  func reloadSharedStrings() throws {
    let screen = try LuaScreen(path: screenFixture("shared_strings.lua"))
    try screen.perform(action: "grow")
    let before = CrossingLimitTests.residentBytes()
    #expect(screen.state["list"].tableValue?.sequence.count == 1000)
    #expect(screen.state["keyed"].tableValue?.sequence.count == 1000)
    // Before: the push made a thousand 1 MiB Lua strings (values, then keys) and was refused
    // by the 64 MiB cap after building them.
    let fresh = try screen.reloaded()
    #expect(fresh.state["list"].tableValue?.sequence.last?.stringValue?.utf8.count == 1 << 20)
    let lastKeyed = try #require(fresh.state["keyed"].tableValue?.sequence.last?.tableValue)
    #expect(lastKeyed.fields.first?.key.utf8.count == 1 << 20)
    #expect(lastKeyed.fields.first?.value == .integer(1000))
    let grown = CrossingLimitTests.residentBytes() - before
    #expect(grown < 768 << 20, "the crossing grew the process by \(grown >> 20) MiB")
    fresh.close()
  }

  @Test("900 dispatched actions naming it are read as one string, not 900 copies")
  func actionsShareStrings() throws {
    let screen = try LuaScreen(path: screenFixture("shared_strings.lua"))
    let before = CrossingLimitTests.residentBytes()
    let step = try screen.perform(action: "shout")
    let grown = CrossingLimitTests.residentBytes() - before
    #expect(step.actions.count == 901)
    #expect(step.actions.last?["text"].stringValue?.utf8.count == 1 << 20)
    // (The action log keeps the newest within its byte budget, counting each copy: 7 of them.)
    #expect(screen.actionCount == 901 && screen.actionLog.last == step.actions.last)
    #expect(grown < 768 << 20, "reading the batch grew the process by \(grown >> 20) MiB")
  }
}
