import Foundation
import SendingState

/// A headless gesture recognizer: a kind, a state machine, parameters and targets.
///
/// The base of the eight kinds. Drive one through a state sequence with ``perform(_:)``, or
/// let ``View/simulateGesture(_:_:states:)`` pick the recognizers an input satisfies:
///
/// ```swift
/// let pan = PanGestureRecognizer()
/// view.addGestureRecognizer(pan)
/// try pan.perform([.began, .changed, .ended])
/// ```
///
/// States follow UIKit: a discrete kind (tap, swipe) goes `possible → recognized` (or `failed`);
/// a continuous kind goes `possible → began → changed* → ended | cancelled` (or `failed`).
/// Targets are called on every state but `possible` and `failed`; after a terminal state the
/// recognizer resets to `possible`.
@MainActor
open class GestureRecognizer: GestureRecognizing {
  /// The recognizer's single kind.
  public let kind: SenderEvent.Gesture.Kind
  /// The current state.
  public private(set) var state: GestureState = .possible
  /// Whether recognition cancels touches in the view (UIKit's default: `true`).
  public var cancelsTouchesInView = true
  /// Whether the recognizer takes part in recognition.
  public var isEnabled = true
  /// The view the recognizer is attached to.
  public internal(set) weak var view: View?

  private var targets: [(id: ActionTargetID, action: @MainActor () -> Void)] = []
  private var nextTargetID: UInt64 = 0

  /// Creates a recognizer of `kind` (subclasses pass their own).
  public init(kind: SenderEvent.Gesture.Kind) {
    self.kind = kind
  }

  /// Registers a callback called on each reported state.
  ///
  /// The recognizer keeps the closure until ``removeTarget(_:)``: capture the recognizer itself
  /// weakly or unowned (`{ [unowned recognizer] in … }`), or it can never be released.
  @discardableResult
  public func addTarget(_ action: @escaping @MainActor () -> Void) -> ActionTargetID {
    nextTargetID += 1
    let id = ActionTargetID(rawValue: nextTargetID)
    targets.append((id, action))
    return id
  }

  /// Removes the callback `id`.
  public func removeTarget(_ id: ActionTargetID) {
    targets.removeAll { $0.id == id }
  }

  /// The number of registered callbacks.
  public var targetCount: Int { targets.count }

  // MARK: - State machine

  /// Whether the state machine allows going from `from` to `to` for this kind.
  public func canTransition(from: GestureState, to: GestureState) -> Bool {
    if to == .failed { return from == .possible }
    if kind.isDiscrete {
      return from == .possible && to == .recognized
    }
    switch from {
    case .possible: return to == .began
    case .began, .changed: return to == .changed || to == .ended || to == .cancelled
    default: return false
    }
  }

  /// Moves to `newState`, then calls the targets (except for `failed`).
  ///
  /// - Throws: ``GestureTransitionError`` if the state machine forbids the move; nothing changes.
  public func transition(to newState: GestureState) throws(GestureTransitionError) {
    guard canTransition(from: state, to: newState) else {
      throw GestureTransitionError(kind: kind, from: state, to: newState)
    }
    state = newState
    guard newState != .failed else { return }
    for target in targets {
      target.action()
    }
  }

  /// Runs `states` in order from `possible`, then resets to `possible`.
  ///
  /// The whole sequence is checked first: an invalid one throws and changes nothing.
  ///
  /// - Parameter states: e.g. `[.recognized]` for a tap, `[.began, .changed, .ended]` for a pan.
  public func perform(_ states: [GestureState]) throws(GestureTransitionError) {
    var current = state
    for next in states {
      guard canTransition(from: current, to: next) else {
        throw GestureTransitionError(kind: kind, from: current, to: next)
      }
      current = next
    }
    defer { reset() }
    for next in states {
      try transition(to: next)
    }
  }

  /// Returns to `possible` without calling targets.
  public func reset() {
    state = .possible
  }

  /// The default sequence for this kind: `[.recognized]` or `[.began, .changed, .ended]`.
  public var defaultSequence: [GestureState] {
    kind.isDiscrete ? [.recognized] : [.began, .changed, .ended]
  }

  // MARK: - Input matching

  /// Whether a simulated `input` satisfies this recognizer's requirements.
  ///
  /// Subclasses check their parameters; the base accepts everything.
  open func accepts(_ input: GestureInput) -> Bool { true }

  /// Copies the continuous values of `input` (translation, scale…) into the recognizer.
  open func apply(_ input: GestureInput) {}

  /// The recognizer's parameters as `name=value` pairs, for diagnostics and render trees.
  open var parameters: [RenderProperty] { [] }

  // MARK: - Factory

  /// A recognizer of the single kind `kind`, configured from `gesture`'s parameters.
  public static func make(kind: SenderEvent.Gesture.Kind, configuredBy gesture: SenderEvent.Gesture) -> GestureRecognizer {
    switch kind {
    case .tap:
      TapGestureRecognizer(numberOfTapsRequired: gesture.numberOfTaps ?? 1, numberOfTouchesRequired: gesture.numberOfTouches ?? 1)
    case .longPress:
      LongPressGestureRecognizer(
        minimumPressDuration: gesture.minimumPressDuration ?? 0.5, numberOfTapsRequired: gesture.numberOfTaps ?? 0,
        numberOfTouchesRequired: gesture.numberOfTouches ?? 1)
    case .swipe:
      SwipeGestureRecognizer(direction: gesture.direction ?? .right, numberOfTouchesRequired: gesture.numberOfTouches ?? 1)
    case .pan:
      PanGestureRecognizer(minimumNumberOfTouches: gesture.numberOfTouches ?? 1)
    case .pinch:
      PinchGestureRecognizer()
    case .rotation:
      RotationGestureRecognizer()
    case .screenEdge:
      ScreenEdgePanGestureRecognizer(edges: gesture.edges ?? .left)
    case .hover:
      HoverGestureRecognizer()
    default:
      GestureRecognizer(kind: kind)
    }
  }
}

/// A forbidden gesture state change, such as `possible → changed`.
///
/// ```swift
/// do { try tap.perform([.began]) } catch { print(error) }
/// // "tap gesture cannot go from possible to began (a discrete gesture goes possible → recognized or failed)"
/// ```
public struct GestureTransitionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The recognizer's kind.
  public let kind: SenderEvent.Gesture.Kind
  /// The state it was in.
  public let from: GestureState
  /// The state it was asked to enter.
  public let to: GestureState

  /// What was asked and what the kind allows.
  public var description: String {
    let rule =
      kind.isDiscrete
      ? "a discrete gesture goes possible → recognized or failed"
      : "a continuous gesture goes possible → began → changed… → ended or cancelled, or possible → failed"
    return "\(kind) gesture cannot go from \(from) to \(to) (\(rule))"
  }
}
