import Foundation
import SendingState
import SendingStateHeadless
import Testing

@testable import SendingStateLua

@Suite("Screens: one event at a time")
@MainActor
struct ReentrancyTests {
  /// The screen a host function drives (set once the screen is open). Weak: the screen's
  /// runtime holds the host function, which holds this box.
  @MainActor
  final class Box {
    weak var screen: LuaScreen?
    var inner: (any Error)?
  }

  @Test("a host function that taps the screen during an event is refused; the event under way goes on alone")
  func hostFunctionCannotStartAnotherEvent() throws {
    let box = Box()
    var options = LuaScreen.Options()
    options.hostModules["poke"] = [
      "again": { _ in
        MainActor.assumeIsolated {
          do { try box.screen?.tap("plus") } catch { box.inner = error }
        }
        return 0
      }
    ]
    let screen = try LuaScreen(path: screenFixture("reentrant.lua"), options: options)
    box.screen = screen
    try screen.tap("go")
    let inner = try #require(box.inner as? ScriptError)
    #expect(inner.message.hasPrefix("the screen is running an event already"))
    // The outer event went on and committed alone; the inner tap changed nothing.
    #expect(screen.state == ["count": 10])
    #expect(screen.actionLog == [["type": "go"]])
    try screen.tap("plus")
    #expect(screen.state == ["count": 11])
  }
}
