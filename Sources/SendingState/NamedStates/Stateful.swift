/// An object with named states: each state is a named bundle of changes to the object, applied
/// instantly or through a transition by a ``StateDispatcher`` (XCEState's model).
///
/// Declare each state as a static function on `NamedState` of the type; its name (identity) is
/// the function's name with its argument labels, so the argument values do not count:
///
/// ```swift
/// extension Spinner: Stateful {}
///
/// extension NamedState<Spinner> {
///   static func loading() -> Self {
///     Self { $0.isHidden = false }
///   }
///   static func highlighted(_ color: Int) -> Self {
///     Self { $0.isHighlighted = true }.onUpdate { $0.color = color }
///   }
/// }
///
/// spinner.states.apply(.highlighted(1))   // onSet, then onUpdate: color 1
/// spinner.states.apply(.highlighted(2))   // the same state again: only onUpdate, color 2
/// ```
///
/// Adopt it on a final class (the default transition is typed by `Self`).
///
/// Overloads with the same labels (`f(_: Int)` and `f(_: String)`) have the same name, so they
/// are one state; give one an explicit name (`Self(named: "f(int)") { … }`) to tell them apart.
@MainActor
public protocol Stateful: AnyObject {
  /// The transition an apply without one uses (``Transition/instantly`` unless the type says).
  static var defaultTransition: Transition<Self> { get }
}

extension Stateful {
  /// Changes apply at once, unless the type declares its own default.
  public static var defaultTransition: Transition<Self> { .instantly }

  /// The object's dispatcher: the one that applies its named states, made on first use and kept
  /// for as long as the object lives (it holds the object weakly).
  public var states: StateDispatcher<Self> {
    DispatcherTable.dispatcher(for: self)
  }
}

/// The dispatchers made by ``Stateful/states``, by object.
@MainActor
enum DispatcherTable {
  private static var table: [ObjectIdentifier: AnyObject] = [:]
  private static var pruneAt = 64

  static func dispatcher<Target: Stateful>(for target: Target) -> StateDispatcher<Target> {
    let key = ObjectIdentifier(target)
    // An identifier can be reused by a new object once the old one is gone: the entry counts
    // only if its dispatcher still holds this very object.
    if let found = table[key] as? StateDispatcher<Target>, found.target === target { return found }
    if table.count >= pruneAt {
      table = table.filter { ($0.value as? any TargetHolding)?.holdsTarget ?? false }
      pruneAt = max(64, table.count * 2)
    }
    let made = StateDispatcher(for: target)
    table[key] = made
    return made
  }
}

/// Whether a dispatcher's object is still alive (for pruning the table).
@MainActor
protocol TargetHolding: AnyObject {
  var holdsTarget: Bool { get }
}
