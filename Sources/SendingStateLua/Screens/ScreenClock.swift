import Foundation
import Synchronization

/// The time a screen's timers (`store:after`) and `require "clock"` run on: the machine's, or
/// a ``VirtualClock`` that tests and specs move by hand.
///
/// ```swift
/// let clock = VirtualClock(now: 1_700_000_000)
/// var options = LuaScreen.Options()
/// options.clock = clock
/// let screen = try LuaScreen(path: "timer.lua", options: options)
/// try await screen.advance(by: 5)   // every timer due within 5 s fires, in order
/// ```
public protocol ScreenClock: Sendable {
  /// Seconds since 1970, now.
  var now: Double { get }
  /// Waits `seconds` of this clock's time; throws `CancellationError` when the task is
  /// cancelled.
  func sleep(seconds: Double) async throws
}

/// The machine's clock.
public struct SystemScreenClock: ScreenClock {
  /// Creates the clock.
  public init() {}

  /// `Date().timeIntervalSince1970`.
  public var now: Double { Date().timeIntervalSince1970 }

  /// `Task.sleep`. A delay that is not finite, or longer than a day, is clamped (delays from
  /// scripts are checked before they get here; this is the last line).
  public func sleep(seconds: Double) async throws {
    let bounded = seconds.isFinite ? min(max(seconds, 0), 86_400) : 86_400
    try await Task.sleep(for: .milliseconds(Int64((bounded * 1000).rounded())))
  }
}

/// A clock that stands still until it is advanced: sleepers wake, in the order of their
/// deadlines, only when ``advance(to:)`` passes them. Thread-safe.
public final class VirtualClock: ScreenClock {
  private struct Sleeper {
    var deadline: Double
    var continuation: CheckedContinuation<Void, any Error>?
    var fired = false
  }

  private struct Timers {
    var current: Double
    var sleepers: [Int: Sleeper] = [:]
    var nextID = 0
  }

  private let timers: Mutex<Timers>

  /// A clock that reads `now` (seconds since 1970) until advanced.
  public init(now: Double = 0) {
    timers = Mutex(Timers(current: now))
  }

  /// The clock's time.
  public var now: Double { timers.withLock { $0.current } }

  /// How many timers wait.
  public var sleeping: Int { timers.withLock { $0.sleepers.values.filter { !$0.fired }.count } }

  /// The earliest deadline of the timers that wait, if any.
  public var nextDeadline: Double? { timers.withLock { $0.sleepers.values.filter { !$0.fired }.map(\.deadline).min() } }

  /// When the timer of `ticket` is due, while it waits (nil once it fired or was cancelled):
  /// what a list of a screen's pending effects shows.
  package func deadline(of ticket: Int) -> Double? {
    timers.withLock { timers in timers.sleepers[ticket].flatMap { $0.fired ? nil : $0.deadline } }
  }

  /// Waits until the clock has been advanced `seconds` past now.
  public func sleep(seconds: Double) async throws {
    try await wait(for: schedule(after: seconds))
  }

  /// Sets a timer `seconds` from now, at once (so a later ``advance(to:)`` passes it even
  /// before anyone waits for it); returns its ticket for ``wait(for:)``. A timer of no delay
  /// is due now and fires at the next advance (even by 0), like every other timer: on a
  /// virtual clock nothing fires by itself.
  public func schedule(after seconds: Double) -> Int {
    timers.withLock { timers in
      timers.nextID += 1
      // A delay too small to move a large time still lies ahead (else it would be due at once,
      // for ever, and an advance could never pass it).
      var deadline = timers.current + max(0, seconds)
      if seconds > 0, deadline <= timers.current { deadline = timers.current.nextUp }
      timers.sleepers[timers.nextID] = Sleeper(deadline: deadline, fired: false)
      return timers.nextID
    }
  }

  /// Removes the timer of `ticket` (an effect cancelled before it waited): an advance no longer
  /// fires it, and a later ``wait(for:)`` on it throws `CancellationError`.
  public func cancel(_ ticket: Int) {
    let continuation = timers.withLock { $0.sleepers.removeValue(forKey: ticket)?.continuation }
    continuation?.resume(throwing: CancellationError())
  }

  /// Waits until the timer of `ticket` fires; throws `CancellationError` when the task is
  /// cancelled first.
  public func wait(for ticket: Int) async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        // What to do once the lock is released: fail, return, or wait for an advance.
        let outcome: Bool? = timers.withLock { timers in
          guard let sleeper = timers.sleepers[ticket] else { return false }
          if sleeper.fired {
            timers.sleepers[ticket] = nil
            return true
          }
          timers.sleepers[ticket]?.continuation = continuation
          return nil
        }
        switch outcome {
        case false?: continuation.resume(throwing: CancellationError())
        case true?: continuation.resume()
        case nil: break
        }
      }
    } onCancel: {
      let sleeper = timers.withLock { $0.sleepers.removeValue(forKey: ticket) }
      sleeper?.continuation?.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock to `time` (never back) and fires every timer due by then, earliest first;
  /// returns how many fired.
  @discardableResult
  public func advance(to time: Double) -> Int {
    let (waiting, count) = timers.withLock { timers -> ([CheckedContinuation<Void, any Error>], Int) in
      timers.current = max(timers.current, time)
      let now = timers.current
      let due = timers.sleepers.filter { !$0.value.fired && $0.value.deadline <= now }
        .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
      var waiting: [CheckedContinuation<Void, any Error>] = []
      for (ticket, sleeper) in due {
        if let continuation = sleeper.continuation {
          timers.sleepers[ticket] = nil
          waiting.append(continuation)
        } else {
          timers.sleepers[ticket]?.fired = true  // its waiter has not come yet: it returns at once
        }
      }
      return (waiting, due.count)
    }
    for continuation in waiting { continuation.resume() }
    return count
  }
}
