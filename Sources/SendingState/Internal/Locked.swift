import Foundation

/// A value guarded by a non-recursive lock.
///
/// NB: closures passed to `withLock` must not re-enter the same `Locked`;
/// callers copy what they need out and act after the lock is released.
///
/// Decision: the standard library's `Mutex` is used where the guarded value is `Sendable`; the
/// values here are not (bound state of any type, closures, object references), and `Mutex`'s
/// `sending` accessors refuse to hand such values out while they stay guarded.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
