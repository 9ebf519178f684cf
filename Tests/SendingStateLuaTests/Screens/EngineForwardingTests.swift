import SendingState
import SendingStateHeadless
import Testing

@testable import SendingStateLua

@Suite("Engine forwarding: the tree and its sender list are built per declaration, not per event")
@MainActor
struct EngineForwardingTests {
  @Test("taps and commits reuse the screen's tree and sender list; both senders still get the state")
  func builtOnce() throws {
    let screen = try LuaScreen(path: examplePath("counter/counter.lua"))
    let forwarding = try #require(screen.host.forwarding)
    let builds = forwarding.builds
    let start = try #require(screen.state["count"].intValue)
    let senders = forwarding.tree.allSenders.count
    #expect(senders >= 2)
    for _ in 0..<10 { try screen.tap("plus") }
    try screen.tap("minus")
    #expect(forwarding.builds == builds)
    #expect(screen.state["count"].intValue == start + 9)
    // Every sender was handed the committed state (SendingState's sender propagation).
    for sender in forwarding.tree.allSenders {
      let view = try #require(sender as? View)
      let bound: ScreenState? = view.ss.state()
      #expect(bound?.value["count"].intValue == start + 9)
    }
    // The cached list is the tree's own list.
    #expect(forwarding.tree.allSenders.map(ObjectIdentifier.init) == forwarding.tree.allEventKeys.map(\.sender).reduce(into: [ObjectIdentifier]()) {
      if !$0.contains(ObjectIdentifier($1)) { $0.append(ObjectIdentifier($1)) }
    })
  }
}
