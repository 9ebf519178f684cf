import CPangoCairo
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
    return engine.withLock { $0.width(text, size: size, bold: bold) }
  }

  /// `text`, shortened with "…" at its end when it is wider than `width`.
  package static func fitted(_ text: String, width: Double, size: Double, bold: Bool = false) -> String {
    engine.withLock { engine in
      guard engine.width(text, size: size, bold: bold) > width else { return text }
      let characters = Array(text)
      var low = 0
      var high = characters.count
      while low < high {  // the longest prefix that fits with the ellipsis
        let middle = (low + high + 1) / 2
        if engine.width(String(characters[..<middle]) + "…", size: size, bold: bold) <= width {
          low = middle
        } else {
          high = middle - 1
        }
      }
      return low == 0 ? "" : String(characters[..<low]) + "…"
    }
  }

  /// Draws `text` on `cairo` with its left edge at `x`, centred vertically on `centerY`.
  static func draw(_ text: String, on cairo: OpaquePointer, x: Double, centerY: Double, size: Double, bold: Bool) {
    guard !text.isEmpty else { return }
    engine.withLock { $0.draw(text, on: cairo, x: x, centerY: centerY, size: size, bold: bold) }
  }

  private static let engine = Engine()

  /// The pango objects, created once and kept for the life of the process.
  ///
  /// `@unchecked Sendable`: every use of its state goes through ``withLock(_:)``.
  private final class Engine: @unchecked Sendable {
    private let lock = NSLock()
    let context: OpaquePointer
    var fonts: [Double: OpaquePointer] = [:]
    var widths: [String: Double] = [:]

    init() {
      let fontMap = pango_cairo_font_map_new()
      context = pango_font_map_create_context(fontMap)
      g_object_unref(UnsafeMutableRawPointer(fontMap))  // the context keeps the font map
      let options = cairo_font_options_create()
      cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
      cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
      cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
      pango_cairo_context_set_font_options(context, options)
      cairo_font_options_destroy(options)
    }

    func withLock<Result>(_ body: (Engine) -> Result) -> Result {
      lock.lock()
      defer { lock.unlock() }
      return body(self)
    }

    func font(size: Double, bold: Bool) -> OpaquePointer {
      let key = bold ? -size : size
      if let font = fonts[key] { return font }
      let font = pango_font_description_new()!
      pango_font_description_set_family(font, PictureFont.family)
      pango_font_description_set_weight(font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
      pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
      fonts[key] = font
      return font
    }

    /// A new layout of `text` (the caller releases it).
    func layout(_ text: String, size: Double, bold: Bool) -> OpaquePointer {
      let layout = pango_layout_new(context)!
      pango_layout_set_font_description(layout, font(size: size, bold: bold))
      pango_layout_set_text(layout, text, -1)
      return layout
    }

    func width(_ text: String, size: Double, bold: Bool) -> Double {
      let key = "\(size)|\(bold)|\(text)"
      if let width = widths[key] { return width }
      let layout = layout(text, size: size, bold: bold)
      defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
      var ink = PangoRectangle()
      var logical = PangoRectangle()
      pango_layout_get_extents(layout, &ink, &logical)
      let width = Double(logical.width) / Double(PANGO_SCALE)
      if widths.count > 20_000 { widths.removeAll() }  // bounded: pictures of untrusted scripts
      widths[key] = width
      return width
    }

    func draw(_ text: String, on cairo: OpaquePointer, x: Double, centerY: Double, size: Double, bold: Bool) {
      let layout = layout(text, size: size, bold: bold)
      defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
      var ink = PangoRectangle()
      var logical = PangoRectangle()
      pango_layout_get_extents(layout, &ink, &logical)
      let height = Double(logical.height) / Double(PANGO_SCALE)
      cairo_move_to(cairo, x, centerY - height / 2)
      pango_cairo_show_layout(cairo, layout)
    }
  }
}
