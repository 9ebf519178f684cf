/// A type-erased ``Boundable``, so view models of different types fit in one list.
///
/// Each element remembers its own binder type and applies itself only to a view of that type,
/// so a list of rows can be bound to a list of views in a loop:
///
/// ```swift
/// let rows: [AnyBoundable] = [
///   TitleViewModel(contentData: "Menu").eraseToAnyBoundable(),
///   ProductViewModel(contentData: tea).eraseToAnyBoundable(),
/// ]
/// for (row, cell) in zip(rows, cells) {
///   row.apply(to: cell)
/// }
/// ```
///
/// Decisions, as for ``AnyBindingStore`` (D-12): a view of the wrong type never crashes.
/// ``apply(to:)`` ignores it and changes nothing; ``tryApply(to:)`` throws
/// ``BindingStoreError/binderTypeMismatch(expected:actual:)``. A view model whose data is `nil`
/// changes nothing either way: it has nothing to show, which is not an error.
///
/// It is `Sendable`, like the view models it wraps. It keeps the view model it wraps (a copy of a
/// struct, a reference to a class) and reads its data at each call, so erasing a class view model
/// sees the data it holds when applied.
public struct AnyBoundable: Sendable {
  /// The wrapped view model's binder type.
  public var binderType: Any.Type { binderTypeBody() }

  /// The wrapped view model's data, or `nil` when it has none.
  public var contentData: Any? { contentDataBody() }

  private let binderTypeBody: @Sendable () -> Any.Type
  private let contentDataBody: @Sendable () -> Any?
  private let applyBody: @MainActor @Sendable (Any) throws(BindingStoreError) -> Void

  /// Erases `boundable`.
  ///
  /// - Parameter boundable: the view model to wrap.
  public init<Wrapped: Boundable>(_ boundable: Wrapped) {
    binderTypeBody = { Wrapped.Binder.self }
    contentDataBody = { boundable.contentData }
    applyBody = { (binder: Any) throws(BindingStoreError) in
      guard let typed = binder as? Wrapped.Binder else {
        throw .binderTypeMismatch(expected: "\(Wrapped.Binder.self)", actual: "\(type(of: binder))")
      }
      boundable.apply(to: typed)
    }
  }

  /// Configures `binder` with the data when it is of ``binderType``; a view of another type, or
  /// `nil` data, changes nothing (see ``tryApply(to:)``).
  ///
  /// - Parameter binder: the view to show the data on.
  @MainActor
  public func apply(to binder: Any) {
    try? applyBody(binder)
  }

  /// Configures `binder` with the data, or throws
  /// ``BindingStoreError/binderTypeMismatch(expected:actual:)`` when it is not of ``binderType``.
  ///
  /// `nil` data is not an error: the call returns without configuring anything.
  ///
  /// - Parameter binder: the view to show the data on.
  @MainActor
  public func tryApply(to binder: Any) throws(BindingStoreError) {
    try applyBody(binder)
  }
}
