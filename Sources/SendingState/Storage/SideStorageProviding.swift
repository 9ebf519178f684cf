/// An object that carries SendingState's per-object side storage.
///
/// This replaces upstream's Objective-C associated objects. The object owns one ``SideStorage``
/// for its whole life, so bound state, the state observer, handler registrations and the store
/// token live with the object and are released with it. The headless `View` conforms; conform a
/// plain class by adding one stored property:
///
/// ```swift
/// final class Tag: SideStorageProviding {
///   let sideStorage = SideStorage()
/// }
/// ```
///
/// Contract: `sideStorage` returns the same instance on every access, and no other object shares it.
public protocol SideStorageProviding: AnyObject {
  /// The object's own side storage (same instance on every access).
  var sideStorage: SideStorage { get }
}
