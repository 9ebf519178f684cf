import CPicture

/// Debian's cairo and pango, opened at the first picture rather than linked.
///
/// Linked, they and their ~30 dependencies were loaded by every start of the CLI, most of
/// which draw nothing (see `Sources/CPicture/include/picture.h`). ``PNGRenderer`` needs them and
/// says so when they are missing; ``PictureFont`` measures text with them and, without them,
/// estimates widths (layouts then differ a little from the pictures of a machine that has them).
package enum PictureLibrary {
  /// Why cairo and pango cannot be used in this process, or nil when they can (found once).
  package static let unavailable: String? = {
    var why = [CChar](repeating: 0, count: 256)
    return sspic_open(&why, why.count) == 1 ? nil : String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }()

  /// Throws the reason cairo and pango cannot be used, for `what` (e.g. "--png").
  static func require(for what: String) throws {
    if let why = unavailable { throw ToolError.usage("\(what): \(why)") }
  }
}
