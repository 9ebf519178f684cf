/// One unit of a server-driven section: a type name that picks a renderer, and its data.
///
/// `unitData` may be the unit's `data` field or the unit itself, as the server sends it:
///
/// ```swift
/// struct Unit: ServerStateUnitRepresentable {
///   var unitType: String      // "banner", "productCard", …
///   var unitData: Any?
/// }
/// ```
public protocol ServerStateUnitRepresentable {
  /// The unit's type name.
  var unitType: String { get }
  /// The unit's payload.
  var unitData: Any? { get }
}
