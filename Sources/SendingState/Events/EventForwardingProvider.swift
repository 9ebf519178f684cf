/// An object (usually a view) that declares how its senders' events become actions.
///
/// The tree is usually computed, so a fresh one is built on each access, and its state-aware
/// closures read the senders' state at event time:
///
/// ```swift
/// extension CounterView: EventForwardingProvider {
///   var eventForwarder: any EventForwardable {
///     EventForwarder(plusButton) { _, ctx in ctx.control(.touchUpInside) { [CounterAction.increment] } }
///   }
/// }
/// counterView.ss.addActionHandler(to: handler)
/// ```
///
/// Declaring a tree installs nothing: events reach a handler only after `ss.addActionHandler`.
@MainActor
public protocol EventForwardingProvider: AnyObject {
  /// The forwarding tree (built fresh on each access when computed).
  var eventForwarder: any EventForwardable { get }
}
