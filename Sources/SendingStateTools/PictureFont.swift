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

  /// The width of `text` set in the picture font at `size` (in picture points).
  package static func width(_ text: String, size: Double, bold: Bool = false) -> Double {
    guard !text.isEmpty else { return 0 }
    guard let engine else { return estimate(text, size: size, bold: bold) }
    return engine.withLock { $0.width(text, size: size, bold: bold) }
  }

  /// Without pango (see ``PictureLibrary``): DejaVu Sans's average advance, about 0.6 em.
  static func estimate(_ text: String, size: Double, bold: Bool) -> Double {
    Double(text.count) * size * (bold ? 0.65 : 0.6)
  }

  /// `text`, shortened with "…" at its end when it is wider than `width`.
  package static func fitted(_ text: String, width: Double, size: Double, bold: Bool = false) -> String {
    guard let engine else { return fitted(text, width: width) { estimate($0, size: size, bold: bold) } }
    return engine.withLock { engine in fitted(text, width: width) { engine.width($0, size: size, bold: bold) } }
  }

  private static func fitted(_ text: String, width: Double, measure: (String) -> Double) -> String {
    guard measure(text) > width else { return text }
    let characters = Array(text)
    var low = 0
    var high = characters.count
    while low < high {  // the longest prefix that fits with the ellipsis
      let middle = (low + high + 1) / 2
      if measure(String(characters[..<middle]) + "…") <= width {
        low = middle
      } else {
        high = middle - 1
      }
    }
    return low == 0 ? "" : String(characters[..<low]) + "…"
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
      if widths.count > 20_000 { widths.removeAll() }  // bounded: pictures of untrusted scripts
      widths[key] = width
      return width
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
