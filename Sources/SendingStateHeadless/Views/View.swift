import SendingState

/// A headless view: an id, visibility, children and gesture recognizers.
///
/// The base of every headless kind and the Linux stand-in for `UIView`. It hosts `.ss`, carries
/// SendingState's side storage, and accepts gesture recognizers:
///
/// ```swift
/// let root = StackView(id: "root", axis: .vertical)
/// root.addSubview(Label(id: "title", text: "Tea"))
/// root.view(withID: "title")   // the label
/// print(root.renderTree().text)
/// ```
///
/// A view takes user interaction (see ``isInteractive``) only when it and its ancestors are
/// visible, enabled and not transparent.
@MainActor
open class View: SendingStateHost, SideStorageProviding, GestureHosting, AnimationHosting {
  /// SendingState's per-view storage (bound state, registrations).
  public let sideStorage = SideStorage()

  /// The view's id, unique within a screen by convention; used by drivers and the render tree.
  public var id: String?
  /// Whether the view is hidden. Hidden views take no interaction; they still render.
  public var isHidden = false
  /// Opacity from 0 to 1; below 0.01 the view takes no interaction, as in UIKit.
  public var alpha: Double = 1
  /// Whether the view takes user interaction (controls: whether they are enabled).
  public var isEnabled = true
  /// An integer you choose to identify the view, as `UIView.tag` does; `0` unless set.
  ///
  /// Event forwarders read it at event time (`[.applyFilter(sender.tag)]`). It is not drawn,
  /// so the render tree leaves it out.
  public var tag = 0

  /// The view's size, as a layout would set it (zero until then). A view with an empty size
  /// does not animate (``canAnimate``).
  public var size = LayoutSize(width: 0, height: 0)

  /// The child views, in order.
  public private(set) var subviews: [View] = []
  /// The parent view.
  public private(set) weak var superview: View?
  /// The attached gesture recognizers, in attachment order.
  public private(set) var gestureRecognizers: [GestureRecognizer] = []

  /// Creates a view.
  ///
  /// - Parameter id: the view's id.
  public init(id: String? = nil) {
    self.id = id
  }

  /// The kind name used by the render tree (`"view"`, `"label"`, `"button"`, …).
  open var kind: String { "view" }

  // MARK: - Hierarchy

  /// Appends `view` as the last child (removing it from its previous parent first).
  open func addSubview(_ view: View) {
    view.removeFromSuperview()
    subviews.append(view)
    view.superview = self
  }

  /// Inserts `view` as a child at `index` (clamped to the valid range).
  open func insertSubview(_ view: View, at index: Int) {
    view.removeFromSuperview()
    subviews.insert(view, at: Swift.min(Swift.max(index, 0), subviews.count))
    view.superview = self
  }

  /// Detaches the view from its parent.
  open func removeFromSuperview() {
    guard let parent = superview else { return }
    parent.subviews.removeAll { $0 === self }
    superview = nil
  }

  /// The first view with `id` in this subtree (depth-first, this view first), or `nil`.
  public func view(withID id: String) -> View? {
    if self.id == id { return self }
    for child in subviews {
      if let match = child.view(withID: id) { return match }
    }
    return nil
  }

  /// This view and every descendant, depth-first in child order.
  public var allViews: [View] {
    [self] + subviews.flatMap(\.allViews)
  }

  /// Whether user interaction reaches the view: it and every ancestor are visible
  /// (not hidden, alpha ≥ 0.01) and enabled.
  public var isInteractive: Bool {
    var current: View? = self
    while let view = current {
      if view.isHidden || view.alpha < 0.01 || !view.isEnabled { return false }
      current = view.superview
    }
    return true
  }

  /// The window the view is in: the root of its hierarchy, if that root is a ``Window``.
  public var window: Window? {
    var current: View = self
    while let parent = current.superview { current = parent }
    return current as? Window
  }

  // MARK: - Gesture hosting

  /// A recognizer of the single kind `kind`, configured from `gesture`'s parameters.
  public func makeGestureRecognizer(kind: SenderEvent.Gesture.Kind, configuredBy gesture: SenderEvent.Gesture)
    -> any GestureRecognizing
  {
    GestureRecognizer.make(kind: kind, configuredBy: gesture)
  }

  /// Attaches a headless recognizer (other conformers are ignored).
  public func addGestureRecognizer(_ recognizer: any GestureRecognizing) {
    guard let recognizer = recognizer as? GestureRecognizer else { return }
    recognizer.view?.removeGestureRecognizer(recognizer)
    gestureRecognizers.append(recognizer)
    recognizer.view = self
  }

  /// Detaches `recognizer` if it is attached here.
  public func removeGestureRecognizer(_ recognizer: any GestureRecognizing) {
    guard let recognizer = recognizer as? GestureRecognizer, recognizer.view === self else { return }
    gestureRecognizers.removeAll { $0 === recognizer }
    recognizer.view = nil
  }

  // MARK: - Rendering

  /// The kind's own properties for the render tree, in a fixed order.
  ///
  /// Subclasses return theirs; shared ones (`hidden`, `alpha`, `enabled`) are added by the tree.
  open var renderProperties: [RenderProperty] { [] }
}

extension View {
  /// Whether a render may animate now (VS-4): the view is in a visible ``Window`` and has a
  /// non-empty size; otherwise changes apply without animation.
  public var canAnimate: Bool {
    guard let window, window.isVisible else { return false }
    return size.width > 0 && size.height > 0
  }
}
