import Foundation
import Testing

@testable import SendingState
import SendingStateHeadless

/// A pool item that counts its cleanups (thread-safe).
private final class CountingItem: AutoReleasable, @unchecked Sendable {
  let cleanups = LifeCounter()
  private weak var weakOwner: AnyObject?
  let hadOwner: Bool
  let event: SenderEvent? = nil
  init(owner: AnyObject?) {
    weakOwner = owner
    hadOwner = owner != nil
  }
  var owner: AnyObject? { weakOwner }
  func disable() { cleanups.increment() }
  func detach() {}
}

/// A handler that is not main-actor isolated (checked by calling it off the main actor).
private final class BackgroundHandler: ActionHandlingProvider, @unchecked Sendable {
  let count = LifeCounter()
  func handle(action: Int) { count.increment() }
}

@Suite("Memory, lifetime, threading (checklist 71–75)")
@MainActor
struct LifetimeAndIsolationTests {
  @Test("C71: registrations hold provider, view and sender weakly")
  func c71_registrationsHoldWeakly() {
    weak var weakHandler: RecordingHandler<TestAction>?
    weak var weakView: ForwardingView<Model>?
    let button: Button
    do {
      let view = ForwardingView<Model>()
      let handler = RecordingHandler<TestAction>()
      view.ss.addActionHandler(to: handler)
      weakHandler = handler
      weakView = view
      button = view.button
    }
    #expect(weakHandler == nil)
    #expect(weakView == nil)
    button.simulate(.touchUpInside)  // fires into released objects: no crash, no delivery
  }

  @Test("C72: deallocating a sender cleans up its registrations")
  func c72_senderDeallocCleansUp() throws {
    weak var weakPool: EventBoxPool?
    weak var weakRecognizer: GestureRecognizer?
    let handler = RecordingHandler<TestAction>()
    do {
      let view = ForwardingView<Model>()
      let card = View(id: "card")
      view.tree = { view in
        SenderGroup {
          EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [TestAction.sendClickLog] } }
          EventForwarder(card) { _, ctx in ctx.tapGesture { [TestAction.sendClickLog] } }
        }
      }
      view.ss.addActionHandler(to: handler)
      weakPool = view.button.sideStorage.existingPool
      weakRecognizer = card.gestureRecognizers.first
      #expect(weakPool != nil && weakRecognizer != nil)
    }
    #expect(weakPool == nil)
    #expect(weakRecognizer == nil)
  }

  @Test("C73: pool cleanup is idempotent and cleans each item exactly once under 10 concurrent cleanups")
  func c73_poolCleanupOnce() async {
    let pool = EventBoxPool()
    let owner = NSObject()
    let items = (0..<100).map { _ in CountingItem(owner: owner) }
    items.forEach(pool.insert)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<10 {
        group.addTask { pool.cleanup() }
      }
    }
    pool.cleanup()
    #expect(items.allSatisfy { $0.cleanups.alive == 1 })
    #expect(pool.count == 0)

    let other = NSObject()
    let mine = CountingItem(owner: owner)
    let theirs = CountingItem(owner: other)
    let ownerless = CountingItem(owner: nil)
    [mine, theirs, ownerless].forEach(pool.insert)
    pool.remove(owner: owner)
    #expect(mine.cleanups.alive == 1 && theirs.cleanups.alive == 0 && ownerless.cleanups.alive == 0)
    #expect(pool.count == 2)
    #expect(pool.find(ofType: CountingItem.self) === theirs)
  }

  @Test("C75: UI-facing API is main-actor isolated; ActionHandlingProvider is not")
  func c75_isolation() async {
    let handler = BackgroundHandler()
    await Task.detached {
      // Compiles only because the protocol is not @MainActor.
      handler.handle(action: 1)
    }.value
    #expect(handler.count.alive == 1)
    nonisolated(unsafe) let erased = AnyActionHandlingProvider(handler)
    await Task.detached { erased.handle(action: 2) }.value
    #expect(handler.count.alive == 2)
    // Configurable, the forwarding protocols, configure and registration are @MainActor:
    // this suite is @MainActor, and calling them from a detached task would not compile.
    let view = ForwardingView<Model>()
    view.ss.configure(Model(value: 1))
    #expect(view.configureCount == 1)
  }
}

