import Synchronization

/// A value that the test and a `@Sendable` closure it hands over (a reducer, a middleware) both
/// use, behind a lock.
final class Shared<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) {
    mutex = Mutex(value)
  }

  /// The value now.
  var value: Value { mutex.withLock { $0 } }

  /// Changes the value.
  func update(_ body: (inout Value) -> Void) {
    mutex.withLock { value in body(&value) }
  }
}
