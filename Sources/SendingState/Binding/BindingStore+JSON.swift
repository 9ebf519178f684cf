import Foundation

/// The JSON payload written by the stores: the encoded state and the binder's type name.
struct StorePayload<State: Encodable>: Encodable {
  let state: State
  let binderType: String
}

/// Encodes `state` as a store payload; keys are sorted so the output is deterministic (D-13).
func encodeStorePayload<S: Encodable>(_ state: S, binderType: Any.Type, prettyPrinted: Bool) throws -> Data {
  let encoder = JSONEncoder()
  encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
  return try encoder.encode(StorePayload(state: state, binderType: String(describing: binderType)))
}

extension BindingStore where State: Encodable {
  /// The store as JSON: `{"binderType": "<Binder>", "state": <state>}` with sorted keys.
  ///
  /// Decision (D-13): keys are sorted so snapshots are stable. Reading goes the other way on the
  /// **raw** state (see ``decode(from:using:identifier:)-(Data,_,_)``), as upstream does.
  ///
  /// ```swift
  /// let json = try store.toJSONString()
  /// ```
  public func toJSONData(prettyPrinted: Bool = false) throws -> Data {
    try encodeStorePayload(state, binderType: Binder.self, prettyPrinted: prettyPrinted)
  }

  /// ``toJSONData(prettyPrinted:)`` as a UTF-8 string.
  public func toJSONString(prettyPrinted: Bool = false) throws -> String {
    String(decoding: try toJSONData(prettyPrinted: prettyPrinted), as: UTF8.self)
  }
}

extension BindingStore where State: Decodable {
  /// Creates a store from the raw JSON of a `State` (not the payload `toJSONData` writes).
  ///
  /// ```swift
  /// let store = try BindingStore<Counter, CounterView>.decode(from: #"{"count":2}"#)
  /// ```
  public static func decode(from data: Data, using decoder: JSONDecoder = .init(), identifier: String? = nil) throws
    -> BindingStore
  {
    BindingStore(state: try decoder.decode(State.self, from: data), identifier: identifier)
  }

  /// ``decode(from:using:identifier:)`` from a JSON string.
  public static func decode(from jsonString: String, using decoder: JSONDecoder = .init(), identifier: String? = nil)
    throws -> BindingStore
  {
    try decode(from: Data(jsonString.utf8), using: decoder, identifier: identifier)
  }

  /// Decodes a raw `State` and assigns it (observers are notified). On error nothing changes.
  public func updateState(fromJSONData data: Data, using decoder: JSONDecoder = .init()) throws {
    state = try decoder.decode(State.self, from: data)
  }

  /// ``updateState(fromJSONData:using:)`` from a JSON string.
  public func updateState(fromJSONString jsonString: String, using decoder: JSONDecoder = .init()) throws {
    try updateState(fromJSONData: Data(jsonString.utf8), using: decoder)
  }
}
