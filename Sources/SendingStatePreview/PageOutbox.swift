import NIOCore
import Synchronization

/// The messages waiting for one page, bounded in bytes.
///
/// A page that does not read its socket (a slow network, a stopped tab, a hostile client) would
/// otherwise make the host keep every patch for it: 8 such pages held 1.5 GB with a queue of
/// 256 patches each. Here the queue holds at most ``budget`` bytes. A message that would go
/// past it drops the whole queue (the patches in it build on each other, so a part of them is
/// useless) and marks the page stale; when the page reads again it gets one `full` message,
/// made then, with the screen as it is — so the page never misses a state, only the steps
/// between. What was dropped is counted (``dropped``) and said in that message's status.
///
/// Dropping rather than closing the page: a page on a slow link recovers by itself, and a page
/// that never reads costs its budget and nothing more.
///
/// One reader (the page's socket writer) calls ``next()``; the host pushes from the main actor.
package final class PageOutbox: AsyncSequence, Sendable {
  package typealias Element = String

  /// What was dropped for a page that fell behind.
  package struct Dropped: Equatable, Sendable {
    /// Messages dropped.
    package var messages = 0
    /// Their bytes.
    package var bytes = 0
    /// How many times the page fell behind.
    package var times = 0
  }

  private struct State {
    var queue = CircularBuffer<String>()
    var bytes = 0
    var stale = false
    var finished = false
    var dropped = Dropped()
    var waiter: CheckedContinuation<Void, Never>?
  }

  /// The most bytes queued for the page.
  package let budget: Int
  private let state = Mutex(State())
  private let fullMessage: @MainActor @Sendable (Dropped) -> String

  /// An outbox holding at most `budget` bytes; `fullMessage` makes the `full` message a page
  /// that fell behind gets (told what was dropped so far).
  package init(budget: Int, fullMessage: @escaping @MainActor @Sendable (Dropped) -> String) {
    self.budget = Swift.max(0, budget)
    self.fullMessage = fullMessage
  }

  /// Queues `message`, or, past the budget, drops the queue and marks the page stale.
  package func push(_ message: String) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.finished else { return nil }
      if state.stale {
        // The page gets the whole screen when it reads: this message is in it already.
        state.dropped.messages += 1
        state.dropped.bytes += message.utf8.count
        return nil
      }
      let size = message.utf8.count
      if state.bytes + size > budget {
        state.dropped.messages += state.queue.count + 1
        state.dropped.bytes += state.bytes + size
        state.dropped.times += 1
        state.queue.removeAll()
        state.bytes = 0
        state.stale = true
      } else {
        state.queue.append(message)
        state.bytes += size
      }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// Ends the page's messages: ``next()`` returns `nil` once the queue is sent.
  package func finish() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.finished = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// Takes every message queued now, without waiting (a page that fell behind is left stale:
  /// its `full` message is made by ``next()``). For tests and the fuzz target, which drive the
  /// host synchronously.
  package func takeQueued() -> [String] {
    state.withLock { state in
      let messages = Array(state.queue)
      state.queue.removeAll()
      state.bytes = 0
      return messages
    }
  }

  /// Bytes queued now.
  package var queuedBytes: Int { state.withLock { $0.bytes } }
  /// What was dropped so far.
  package var dropped: Dropped { state.withLock { $0.dropped } }
  /// Whether the page fell behind and gets a `full` message next.
  package var isStale: Bool { state.withLock { $0.stale } }

  private enum Step {
    case message(String)
    case full
    case end
    case wait
  }

  /// The next message for the page (a fresh `full` one if it fell behind), waiting for one;
  /// `nil` when the outbox is finished or the reading task is cancelled.
  package func next() async -> String? {
    while true {
      let step = state.withLock { state -> Step in
        if state.finished && state.queue.isEmpty && !state.stale { return .end }
        if state.stale {
          state.stale = false
          return .full
        }
        if let message = state.queue.popFirst() {
          state.bytes -= message.utf8.count
          return .message(message)
        }
        return .wait
      }
      switch step {
      case .message(let message): return message
      case .full: return await resync()
      case .end: return nil
      case .wait:
        await withTaskCancellationHandler {
          await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
              if state.finished || state.stale || !state.queue.isEmpty || Task.isCancelled { return true }
              state.waiter = continuation
              return false
            }
            if ready { continuation.resume() }
          }
        } onCancel: {
          let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.waiter = nil }
            return state.waiter
          }
          waiter?.resume()
        }
        if Task.isCancelled { return nil }
      }
    }
  }

  /// The `full` message for a page that fell behind. Made on the main actor, where the host
  /// pushes: every message queued before it is older than the screen it shows, so they go.
  @MainActor
  private func resync() -> String {
    let dropped = state.withLock { state -> Dropped in
      state.dropped.messages += state.queue.count
      state.dropped.bytes += state.bytes
      state.queue.removeAll()
      state.bytes = 0
      return state.dropped
    }
    return fullMessage(dropped)
  }

  /// Iterates ``next()``.
  package struct AsyncIterator: AsyncIteratorProtocol {
    let outbox: PageOutbox

    /// The next message (see ``PageOutbox/next()``).
    package mutating func next() async -> String? {
      await outbox.next()
    }
  }

  /// An iterator over the page's messages.
  package func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(outbox: self)
  }
}
