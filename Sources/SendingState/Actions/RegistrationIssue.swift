/// A mapping that handler registration could not install, and why.
///
/// Returned by `ss.addActionHandler(to:)` (discardable). Fix (D-2): upstream stopped installing
/// at the first wrong sender and said nothing; here the offending mapping is skipped, the rest is
/// installed, and each skip is reported:
///
/// ```swift
/// let issues = view.ss.addActionHandler(to: handler)
/// for issue in issues { print(issue) }
/// // "Label: gesture events need a view that hosts gesture recognizers (tap(...))"
/// ```
public struct RegistrationIssue: Hashable, Sendable, CustomStringConvertible {
  /// Why a mapping was skipped.
  public enum Reason: Hashable, Sendable {
    /// The sender has no side storage, so registrations cannot live with it.
    case senderHasNoSideStorage
    /// A control event on a sender that is not ``ControlEventEmitting``.
    case senderIsNotAControl
    /// A gesture on a sender that is not ``GestureHosting``.
    case senderIsNotAGestureHost
  }

  /// The sender's type name.
  public let senderType: String
  /// The event that was not installed.
  public let event: SenderEvent
  /// Why.
  public let reason: Reason

  /// Creates an issue.
  public init(senderType: String, event: SenderEvent, reason: Reason) {
    self.senderType = senderType
    self.event = event
    self.reason = reason
  }

  /// What was skipped and how to fix it.
  public var description: String {
    let why =
      switch reason {
      case .senderHasNoSideStorage: "the sender has no side storage (conform it to SideStorageProviding)"
      case .senderIsNotAControl: "control events need a sender that is ControlEventEmitting"
      case .senderIsNotAGestureHost: "gesture events need a view that is GestureHosting"
      }
    return "\(senderType): \(event) not installed: \(why)"
  }
}
