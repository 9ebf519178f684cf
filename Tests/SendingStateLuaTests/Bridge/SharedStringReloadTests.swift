import Foundation
import Testing

@testable import SendingStateLua

@Suite("Shared strings cross both ways once: a state naming one long string a thousand times")
@MainActor
struct SharedStringReloadTests {
  @Test("is read into Swift and pushed into a reloaded screen as one string (within the memory cap), not a thousand")
  func reloadSharedStrings() throws {
    let screen = try LuaScreen(path: screenFixture("shared_strings.lua"))
    try screen.perform(action: "grow")
    let before = CrossingLimitTests.residentBytes()
    let list = try #require(screen.state["list"].tableValue)
    #expect(list.sequence.count == 1000)
    // Before: the push made a thousand 1 MiB Lua strings and was refused by the 64 MiB cap.
    let fresh = try screen.reloaded()
    #expect(fresh.state["list"].tableValue?.sequence.count == 1000)
    #expect(fresh.state["list"].tableValue?.sequence.last?.stringValue?.utf8.count == 1 << 20)
    let grown = CrossingLimitTests.residentBytes() - before
    #expect(grown < 768 << 20, "the crossing grew the process by \(grown >> 20) MiB")
    fresh.close()
  }
}
