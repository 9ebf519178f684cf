import Foundation

/// A value guarded by a non-recursive lock.
///
/// NB: closures passed to `withLock` must not re-enter the same `Locked`;
/// callers copy what they need out and act after the lock is released.
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
