import Foundation
import Synchronization

/// A clock whose time moves only when a test says so: effects that sleep on it (debounce,
/// throttle, timers) run when the test calls ``advance(by:)``, with no real waiting.
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Search(), reducer: search(clock: clock))
/// await store.send(.queryChanged("tea")) { $0.query = "tea" }
/// await clock.advance(by: .milliseconds(300))   // the debounce fires now
/// await store.receive(.loaded(["Green tea"])) { $0.results = ["Green tea"] }
/// ```
///
/// A sleep until a deadline that has passed returns at once; a cancelled sleep throws
/// `CancellationError`. Sleeps that end at the same instant wake one after the other in the
/// order they began; NB: `Clock.sleep` runs off the main actor, so two effects that start
/// sleeping in the same instant may begin in either order: do not rely on the order of equal
/// deadlines.
public final class TestClock: Clock {
  /// A point in the clock's time: the duration since the clock was made.
  public struct Instant: InstantProtocol, CustomStringConvertible {
    /// The time since the clock's start.
    public var offset: Duration

    /// Creates an instant `offset` after the clock's start.
    ///
    /// - Parameter offset: the time since the start.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The duration from this instant to `other`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Orders instants by time.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The offset, as text.
    public var description: String { "\(offset)" }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Sleeps {
    var current = Instant()
    var sleepers: [Sleeper] = []
    var nextID: UInt64 = 0
    var cancelledEarly: Set<UInt64> = []
    var awake: Set<UInt64> = []
  }

  private let sleeps = Mutex(Sleeps())

  /// Creates a clock at time zero.
  public init() {}

  /// The current instant.
  public var now: Instant {
    sleeps.withLock { $0.current }
  }

  /// The smallest step: none (the clock moves only by ``advance(by:)``).
  public var minimumResolution: Duration { .zero }

  /// The number of sleeps waiting for the clock to reach their deadline.
  public var sleeperCount: Int {
    sleeps.withLock { $0.sleepers.count }
  }

  /// Suspends until the clock reaches `deadline` (returns at once if it has).
  ///
  /// - Parameters:
  ///   - deadline: the instant to wake at.
  ///   - tolerance: ignored.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id: UInt64? = sleeps.withLock { sleeps in
      if deadline <= sleeps.current { return nil }
      sleeps.nextID += 1
      return sleeps.nextID
    }
    guard let id else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let early = sleeps.withLock { sleeps in
          if sleeps.cancelledEarly.remove(id) != nil { return true }
          sleeps.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return false
        }
        if early { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let sleeper: Sleeper? = sleeps.withLock { sleeps in
        if let index = sleeps.sleepers.firstIndex(where: { $0.id == id }) { return sleeps.sleepers.remove(at: index) }
        sleeps.cancelledEarly.insert(id)
        return nil
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
    sleeps.withLock { _ = $0.awake.insert(id) }
  }

  /// Moves the clock forward by `duration`, waking every sleep whose deadline is reached, in
  /// deadline order, and letting the work they resume run before moving on.
  ///
  /// - Parameter duration: how far to move.
  @MainActor
  public func advance(by duration: Duration) async {
    let end = now.advanced(by: duration)
    await settle()
    while true {
      let due: Sleeper? = sleeps.withLock { sleeps in
        let sleepers = sleeps.sleepers
        let candidates = sleepers.indices.filter { sleepers[$0].deadline <= end }
        guard let index = candidates.min(by: { sleepers[$0].deadline < sleepers[$1].deadline }) else {
          sleeps.current = end
          return nil
        }
        let sleeper = sleeps.sleepers.remove(at: index)
        if sleeps.current < sleeper.deadline { sleeps.current = sleeper.deadline }
        return sleeper
      }
      guard let due else { break }
      due.continuation.resume()
      await settle(waitingFor: due.id)
    }
    await settle()
  }

  /// Moves the clock to the last deadline of every waiting sleep (and those they start, up to
  /// 10,000 wake-ups).
  @MainActor
  public func run() async {
    for _ in 0..<10_000 {
      await settle()
      let (last, here) = sleeps.withLock { ($0.sleepers.map(\.deadline).max(), $0.current) }
      guard let last else { return }
      await advance(by: here.duration(to: last))
    }
  }

  /// Lets the main actor run what woke, and lets sleeps that are on their way register.
  ///
  /// NB: `Clock.sleep` is `nonisolated`, so an effect on the main actor that starts sleeping
  /// reaches ``sleep(until:tolerance:)`` through the global executor: its registration is not
  /// ordered with the main actor's jobs. Settling yields the main actor until the set of
  /// sleeps stays the same across a yield round and a millisecond of real time (bounded), so
  /// a sleep that an effect has started is registered before time moves.
  @MainActor
  private func settle(waitingFor id: UInt64? = nil) async {
    if let id {
      // The woken task acknowledges on its way out of `sleep`; wait for that (bounded).
      for _ in 0..<100_000 {
        if sleeps.withLock({ $0.awake.remove(id) != nil }) { break }
        await Task.yield()
      }
    }
    var seen = sleeps.withLock { ($0.sleepers.count, $0.nextID) }
    for _ in 0..<50 {
      for _ in 0..<32 { await Task.yield() }
      let now = sleeps.withLock { ($0.sleepers.count, $0.nextID) }
      if now != seen {
        seen = now
        continue
      }
      try? await Task.sleep(for: .milliseconds(1))
      for _ in 0..<32 { await Task.yield() }
      let after = sleeps.withLock { ($0.sleepers.count, $0.nextID) }
      if after == seen { return }
      seen = after
    }
  }
}
