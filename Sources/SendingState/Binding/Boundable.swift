/// A view model: a snapshot of data paired with the ``Configurable`` type that shows it.
///
/// A boundable holds its data in ``contentData`` and names the view that renders it in
/// ``binderType``. ``apply(to:)`` hands the data to such a view, once and synchronously, through
/// `ss.configure`, so the view's configurer runs and the data becomes the state of the view and
/// of its senders:
///
/// ```swift
/// struct ProductViewModel: Boundable {
///   var contentData: Product?
///   var binderType: ProductCell.Type { ProductCell.self }
/// }
/// ProductViewModel(contentData: tea).apply(to: cell)   // cell configured with tea
/// ```
///
/// A boundable is `Sendable`, so a view model built off the main actor (after a fetch, in an
/// actor) can be handed to the main actor and applied there. A struct whose data is `Sendable`
/// conforms as it is; a class must be `final` and guard its mutable state itself (for example
/// with a lock, declared `@unchecked Sendable`).
///
/// For lists of different view models, erase them with ``eraseToAnyBoundable()`` and apply each
/// ``AnyBoundable`` to its view in a loop.
///
/// Compared with ``BindingStore``: a boundable is a one-way delivery. It takes no write-backs
/// from the view and has no observers; use a store when the view changes the state it shows.
public protocol Boundable: Sendable {
  /// The data the view model delivers.
  associatedtype DataType
  /// The view that renders the data: a ``Configurable`` whose input is ``DataType``.
  associatedtype Binder: Configurable where Binder.Input == DataType

  /// The data to show, or `nil` when there is nothing to show yet (``apply(to:)`` then does
  /// nothing).
  var contentData: DataType? { get }

  /// The type of view that renders ``contentData``.
  var binderType: Binder.Type { get }
}

extension Boundable {
  /// Configures `binder` with ``contentData``, through `ss.configure`.
  ///
  /// The binder's configurer runs once; the data becomes the bound state of the binder and of
  /// the senders in its event forwarder. When ``contentData`` is `nil` nothing happens: the
  /// binder keeps what it shows and its state, as when no view model was applied.
  ///
  /// - Parameter binder: the view to show the data on.
  @MainActor
  public func apply(to binder: Binder) {
    guard let input = contentData else { return }
    SendingState(binder).configure(input)
  }

  /// Wraps the view model in a type-erased ``AnyBoundable``, for lists of different view models.
  public func eraseToAnyBoundable() -> AnyBoundable {
    AnyBoundable(self)
  }
}
