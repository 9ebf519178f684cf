import Foundation

/// A type-erased ``BindingStore``, for heterogeneous collections and presenters.
///
/// It retains its store strongly and forwards to it. `open` so presenter packages can subclass it:
///
/// ```swift
/// let stores: [AnyBindingStore] = [titleStore.eraseToAnyBindingStore(), countStore.eraseToAnyBindingStore()]
/// stores[0].apply(to: titleLabel)
/// ```
///
/// Decision (D-12): a value or binder of the wrong type never crashes. The throwing
/// ``setState(_:)`` and ``tryApply(to:)`` report it as a ``BindingStoreError``; the non-throwing
/// ``state`` setter and ``apply(to:)`` ignore it and change nothing.
///
/// Fix (D-1): ``updateState(fromJSONData:using:)`` decodes whenever the erased state type is
/// `Decodable` (upstream always threw), and throws only when it is not.
open class AnyBindingStore: Hashable {
  /// The store's identifier.
  public let identifier: String?
  /// The store's binder type.
  public let binderType: Any.Type

  private let getState: () -> Any
  private let setStateBody: (Any) throws(BindingStoreError) -> Void
  private let applyBody: @MainActor (Any) throws(BindingStoreError) -> Void
  private let observeBody: (@escaping (Any) -> Void) -> StateObservationToken
  private let sizeBody: (LayoutSize?) -> LayoutSize?
  private let encodeBody: (Bool) throws -> Data
  private let decodeBody: (Data, JSONDecoder) throws -> Void

  /// Erases `store`, retaining it.
  public init<State, Binder>(_ store: BindingStore<State, Binder>) {
    identifier = store.identifier
    binderType = Binder.self
    getState = { store.state }
    setStateBody = { (value: Any) throws(BindingStoreError) in
      guard let typed = value as? State else {
        throw .stateTypeMismatch(expected: "\(State.self)", actual: "\(type(of: value))")
      }
      store.state = typed
    }
    applyBody = { (binder: Any) throws(BindingStoreError) in
      guard let typed = binder as? Binder else {
        throw .binderTypeMismatch(expected: "\(Binder.self)", actual: "\(type(of: binder))")
      }
      store.apply(to: typed)
    }
    observeBody = { observer in store.observe { observer($0) } }
    sizeBody = { Binder.size(with: store.state, constrainedTo: $0) }
    encodeBody = { pretty in
      guard let encodable = store.state as? any Encodable else {
        throw EncodingError.invalidValue(
          store.state,
          .init(codingPath: [], debugDescription: "State \(State.self) does not conform to Encodable"))
      }
      return try encodeStorePayload(encodable, binderType: Binder.self, prettyPrinted: pretty)
    }
    decodeBody = { data, decoder in
      guard let decodable = State.self as? any Decodable.Type else {
        throw DecodingError.typeMismatch(
          State.self, .init(codingPath: [], debugDescription: "State \(State.self) does not conform to Decodable"))
      }
      let decoded = try decoder.decode(decodable, from: data)
      guard let typed = decoded as? State else {
        throw DecodingError.typeMismatch(
          State.self, .init(codingPath: [], debugDescription: "decoded \(type(of: decoded)), expected \(State.self)"))
      }
      store.state = typed
    }
  }

  /// The current state. Setting a value of the wrong type changes nothing (see ``setState(_:)``).
  public var state: Any {
    get { getState() }
    set { try? setState(newValue) }
  }

  /// Sets the state, or throws ``BindingStoreError/stateTypeMismatch(expected:actual:)``.
  ///
  /// - Parameter value: the new state; must be the store's `State`.
  public func setState(_ value: Any) throws(BindingStoreError) {
    try setStateBody(value)
  }

  /// Presents the state on `binder`; a binder of the wrong type is ignored (see ``tryApply(to:)``).
  @MainActor
  public func apply(to binder: Any) {
    try? applyBody(binder)
  }

  /// Presents the state on `binder`, or throws ``BindingStoreError/binderTypeMismatch(expected:actual:)``.
  @MainActor
  public func tryApply(to binder: Any) throws(BindingStoreError) {
    try applyBody(binder)
  }

  /// Observes the store; the observer is called at once with the current state.
  @discardableResult
  public func observe(_ observer: @escaping (Any) -> Void) -> StateObservationToken {
    observeBody(observer)
  }

  /// The binder's preferred size for the current state.
  public func size(constrainedTo parentSize: LayoutSize?) -> LayoutSize? {
    sizeBody(parentSize)
  }

  /// The store as JSON (`{"binderType", "state"}`, sorted keys); throws if the state is not `Encodable`.
  public func toJSONData(prettyPrinted: Bool = false) throws -> Data {
    try encodeBody(prettyPrinted)
  }

  /// ``toJSONData(prettyPrinted:)`` as a UTF-8 string.
  public func toJSONString(prettyPrinted: Bool = false) throws -> String {
    String(decoding: try toJSONData(prettyPrinted: prettyPrinted), as: UTF8.self)
  }

  /// Decodes a raw state and assigns it; throws if it does not decode or is not `Decodable`.
  public func updateState(fromJSONData data: Data, using decoder: JSONDecoder = .init()) throws {
    try decodeBody(data, decoder)
  }

  /// ``updateState(fromJSONData:using:)`` from a JSON string.
  public func updateState(fromJSONString jsonString: String, using decoder: JSONDecoder = .init()) throws {
    try decodeBody(Data(jsonString.utf8), decoder)
  }

  /// Identity equality.
  public static func == (lhs: AnyBindingStore, rhs: AnyBindingStore) -> Bool {
    lhs === rhs
  }

  /// Hashes the object identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
