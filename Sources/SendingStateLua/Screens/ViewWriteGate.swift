import SendingStateHeadless

/// Decides when scripts may write view properties, and makes `configure` transactional.
///
/// - `direct`: `layout` is building the tree; writes apply at once.
/// - `buffered`: `configure` runs; writes are checked at once (so errors name the script's
///   line) but only recorded. They apply together if `configure` returns, and are dropped if it
///   raises, so a failing `configure` never leaves views half-updated.
/// - `closed`: everywhere else; a write is an error (state flows in through `configure` only).
@MainActor
final class ViewWriteGate {
  enum Mode {
    case direct
    case buffered
    case closed(String)
  }

  struct Write {
    let view: ObjectIdentifier
    let property: String
    let value: LuaValue
    let apply: @MainActor () -> Void
  }

  static let outsideConfigure = "views are read-only outside configure (set view properties in configure)"

  var mode: Mode = .closed(ViewWriteGate.outsideConfigure)
  private(set) var buffer: [Write] = []

  /// Applies or records a write, or throws when writes are closed.
  func write(_ view: View, _ property: String, _ value: LuaValue, apply: @escaping @MainActor () -> Void) throws {
    switch mode {
    case .direct:
      apply()
    case .buffered:
      buffer.append(Write(view: ObjectIdentifier(view), property: property, value: value, apply: apply))
    case .closed(let reason):
      throw ScriptError(kind: .runtime, message: reason)
    }
  }

  /// The value a buffered write gave `property` of `view`, so reads in `configure` see it.
  func pending(_ view: View, _ property: String) -> LuaValue? {
    guard case .buffered = mode else { return nil }
    let key = ObjectIdentifier(view)
    return buffer.last { $0.view == key && $0.property == property }?.value
  }

  /// Runs `body` with writes buffered; returns the writes, or throws (dropping them).
  func transaction(_ body: () throws -> Void) throws -> [Write] {
    let saved = mode
    let savedBuffer = buffer
    mode = .buffered
    buffer = []
    defer {
      mode = saved
      buffer = savedBuffer
    }
    try body()
    return buffer
  }

  /// Runs `body` with writes applied directly (layout).
  func direct<R>(_ body: () throws -> R) rethrows -> R {
    let saved = mode
    mode = .direct
    defer { mode = saved }
    return try body()
  }

  /// Runs `body` with writes closed for `reason`.
  func closed<R>(_ reason: String, _ body: () throws -> R) rethrows -> R {
    let saved = mode
    mode = .closed(reason)
    defer { mode = saved }
    return try body()
  }

  /// Whether a `configure` is running (store updates are refused then).
  var isConfiguring: Bool {
    if case .buffered = mode { return true }
    return false
  }
}
