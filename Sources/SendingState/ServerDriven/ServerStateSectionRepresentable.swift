/// A section of a server-driven screen: an optional id and its units, in order.
///
/// A pure contract, with no default implementation; consumers iterate sections and units in order.
/// If a server sends `[[unit]]` without section ids, wrap each inner array with `sectionId` nil
/// (or its index):
///
/// ```swift
/// struct Section: ServerStateSectionRepresentable {
///   var sectionId: String?
///   var units: [any ServerStateUnitRepresentable]
/// }
/// ```
public protocol ServerStateSectionRepresentable {
  /// The section's id, if the server gives one.
  var sectionId: String? { get }
  /// The section's units, in display order.
  var units: [any ServerStateUnitRepresentable] { get }
}
