import SendingState

/// The root of a visible hierarchy: the headless stand-in for `UIWindow`.
///
/// A view is on screen when its hierarchy's root is a window that ``isVisible``; only such views
/// (with a non-empty size) animate their renders:
///
/// ```swift
/// let window = Window()
/// window.addSubview(profileView)
/// window.isVisible = true
/// profileView.size = LayoutSize(width: 320, height: 80)
/// profileView.canAnimate   // true
/// ```
@MainActor
open class Window: View {
  /// Whether the window is shown (`makeKeyAndVisible`); a new window is not.
  public var isVisible = false

  /// The kind name used by the render tree.
  open override var kind: String { "window" }
}
