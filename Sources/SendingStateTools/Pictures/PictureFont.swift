import CPicture
import Foundation

/// The font of screen pictures and of the preview page: DejaVu Sans (Debian's
/// `fonts-dejavu-core`), measured and drawn by pango, so a picture's text is real text.
///
/// Layout measures text here; the PNG renderer draws it here; the preview page names the same
/// family in its CSS, so the browser and the pictures agree on widths.
///
/// ```swift
/// PictureFont.width("Add", size: 15)                         // ≈ 27
/// PictureFont.fitted("A long product name", width: 60, size: 15)   // "A long…"
/// ```
///
/// Pango is not thread-safe, so one font map and context live behind a lock; metrics hinting is
/// off, so widths do not depend on the resolution a picture is drawn at.
package enum PictureFont {
  /// The font family, as CSS and fontconfig name it.
  package static let family = "DejaVu Sans"

  /// The width of `text` set in the picture font at `size` (in picture points). Texts longer than
  /// the default ``PictureBudget/maxTextCharacters`` are measured cut, with "…".
  package static func width(_ text: String, size: Double, bold: Bool = false) -> Double {
    rawWidth(PictureMeasure(budget: PictureBudget()).bounded(text).text, size: size, bold: bold)
  }

  /// `text`, shortened with "…" at its end when it is wider than `width` (or longer than the
  /// default ``PictureBudget/maxTextCharacters``).
  package static func fitted(_ text: String, width: Double, size: Double, bold: Bool = false) -> String {
    var budget = PictureBudget()
    budget.maxTextWork = .max
    return PictureMeasure(budget: budget).fitted(text, width: width, size: size, bold: bold, at: "")
  }

  /// The width of `text` as it is (the caller bounds its length).
  static func rawWidth(_ text: String, size: Double, bold: Bool) -> Double {
    guard !text.isEmpty else { return 0 }
    guard let engine else { return estimate(text, size: size, bold: bold) }
    return engine.withLock { $0.width(text, size: size, bold: bold) }
  }

  /// Without pango (see ``PictureLibrary``): DejaVu Sans's average advance, about 0.6 em.
  static func estimate(_ text: String, size: Double, bold: Bool) -> Double {
    Double(text.count) * advance(size: size, bold: bold)
  }

  static func advance(size: Double, bold: Bool) -> Double { size * (bold ? 0.65 : 0.6) }

  /// Where the longest prefix of `characters` that is at most `x` points wide ends, as a guess
  /// for fitting (pango's character at `x`; without pango, the estimate's): a count of characters.
  static func prefixGuess(_ characters: [Character], text: String, x: Double, size: Double, bold: Bool) -> Int {
    guard let engine else { return max(0, min(characters.count, Int((x / advance(size: size, bold: bold)).rounded(.down)))) }
    guard let byte = engine.withLock({ $0.index(atX: x, in: text, size: size, bold: bold) }) else { return characters.count }
    var offset = 0
    for (count, character) in characters.enumerated() {
      offset += character.utf8.count
      if offset > byte { return count }
    }
    return characters.count
  }

  /// Draws `text` on `cairo` with its left edge at `x`, centred vertically on `centerY`.
  static func draw(_ text: String, on cairo: OpaquePointer, x: Double, centerY: Double, size: Double, bold: Bool) {
    guard !text.isEmpty else { return }
    engine?.withLock { $0.draw(text, on: cairo, x: x, centerY: centerY, size: size, bold: bold) }
  }

  /// Made at the first use, when cairo and pango can be opened.
  private static let engine = PictureLibrary.unavailable == nil ? Engine() : nil

  /// The pango objects, created once and kept for the life of the process.
  ///
  /// `@unchecked Sendable`: every use of its state goes through ``withLock(_:)``.
  private final class Engine: @unchecked Sendable {
    private let lock = NSLock()
    let context: OpaquePointer
    var fonts: [Double: OpaquePointer] = [:]
    var widths: [String: Double] = [:]
    /// Bytes of the keys cached (the cache lives as long as the process: a preview's).
    var cachedBytes = 0

    init() {
      let fontMap = sspic_pango_cairo_font_map_new()
      context = sspic_pango_font_map_create_context(fontMap)
      sspic_g_object_unref(UnsafeMutableRawPointer(fontMap))  // the context keeps the font map
      let options = sspic_cairo_font_options_create()
      sspic_cairo_font_options_set_hint_metrics(options, Int32(SSPIC_HINT_METRICS_OFF))
      sspic_cairo_font_options_set_hint_style(options, Int32(SSPIC_HINT_STYLE_NONE))
      sspic_cairo_font_options_set_antialias(options, Int32(SSPIC_ANTIALIAS_GRAY))
      sspic_pango_cairo_context_set_font_options(context, options)
      sspic_cairo_font_options_destroy(options)
    }

    func withLock<Result>(_ body: (Engine) -> Result) -> Result {
      lock.lock()
      defer { lock.unlock() }
      return body(self)
    }

    func font(size: Double, bold: Bool) -> OpaquePointer {
      let key = bold ? -size : size

      if let font = fonts[key] { return font }
      let font = sspic_pango_font_description_new()!
      sspic_pango_font_description_set_family(font, PictureFont.family)
      sspic_pango_font_description_set_weight(font, bold ? Int32(SSPIC_WEIGHT_BOLD) : Int32(SSPIC_WEIGHT_NORMAL))
      sspic_pango_font_description_set_absolute_size(font, size * Double(SSPIC_PANGO_SCALE))
      fonts[key] = font
      return font
    }

    /// A new layout of `text` (the caller releases it).
    func layout(_ text: String, size: Double, bold: Bool) -> OpaquePointer {
      let layout = sspic_pango_layout_new(context)!
      sspic_pango_layout_set_font_description(layout, font(size: size, bold: bold))
      sspic_pango_layout_set_text(layout, text, -1)
      return layout
    }

    func width(_ text: String, size: Double, bold: Bool) -> Double {
      let key = "\(size)|\(bold)|\(text)"
      if let width = widths[key] { return width }
      let layout = layout(text, size: size, bold: bold)
      defer { sspic_g_object_unref(UnsafeMutableRawPointer(layout)) }
      var ink = sspic_rectangle()
      var logical = sspic_rectangle()
      sspic_pango_layout_get_extents(layout, &ink, &logical)
      let width = Double(logical.width) / Double(SSPIC_PANGO_SCALE)
      if widths.count >= 20_000 || cachedBytes > 4 << 20 {  // bounded: pictures of untrusted scripts
        widths.removeAll()
        cachedBytes = 0
      }
      widths[key] = width
      cachedBytes += key.utf8.count
      return width
    }

    /// The UTF-8 offset in `text` of the character at `x` points (the last one when `x` is past
    /// the end), or nil when `x` is not a position pango can take.
    func index(atX x: Double, in text: String, size: Double, bold: Bool) -> Int? {
      let units = x * Double(SSPIC_PANGO_SCALE)
      guard units.isFinite, units >= 0, units < Double(Int32.max) else { return nil }
      let layout = layout(text, size: size, bold: bold)
      defer { sspic_g_object_unref(UnsafeMutableRawPointer(layout)) }
      var index: Int32 = 0
      var trailing: Int32 = 0
      _ = sspic_pango_layout_xy_to_index(layout, Int32(units), 0, &index, &trailing)
      return Int(index)
    }

    func draw(_ text: String, on cairo: OpaquePointer, x: Double, centerY: Double, size: Double, bold: Bool) {
      let layout = layout(text, size: size, bold: bold)
      defer { sspic_g_object_unref(UnsafeMutableRawPointer(layout)) }
      var ink = sspic_rectangle()
      var logical = sspic_rectangle()
      sspic_pango_layout_get_extents(layout, &ink, &logical)
      let height = Double(logical.height) / Double(SSPIC_PANGO_SCALE)
      sspic_cairo_move_to(cairo, x, centerY - height / 2)
      sspic_pango_cairo_show_layout(cairo, layout)
    }
  }
}
