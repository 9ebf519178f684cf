/// An object that receives state through a configurer: the inbound half of SendingState.
///
/// Declare the input type and a configurer that applies it. The configurer receives the instance
/// explicitly, so it need not capture `self`:
///
/// ```swift
/// final class CountLabel: Label, Configurable {
///   var configurer: (CountLabel, Int) -> Void {
///     { label, count in label.text = "\(count)" }
///   }
/// }
/// countLabel.ss.configure(3)
/// ```
///
/// Contract: the configurer only writes to the view; it never changes state (state flows in,
/// intent flows out). `Input` may be optional, a struct or a class.
@MainActor
public protocol Configurable: AnyObject {
  /// The model the object is configured with.
  associatedtype Input

  /// Applies an input to the object. Called synchronously by `ss.configure`.
  var configurer: (Self, Input) -> Void { get }

  /// The size the object needs for `input` within `parentSize`, or `nil` to let the layout decide.
  ///
  /// The default implementation returns `nil`.
  nonisolated static func size(with input: Input?, constrainedTo parentSize: LayoutSize?) -> LayoutSize?
}

extension Configurable {
  /// Returns `nil`: no preferred size.
  nonisolated public static func size(with input: Input?, constrainedTo parentSize: LayoutSize?) -> LayoutSize? {
    nil
  }
}
