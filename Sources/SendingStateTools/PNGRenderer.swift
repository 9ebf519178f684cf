import CPicture
import Foundation
import SendingStateHeadless

/// Draws a render tree as a PNG with Debian's cairo and pango: the same layout and drawing as
/// the SVG and the preview page (``ScreenPicture``, ``PictureDrawing``), antialiased, text in
/// the pictures' font, at twice the screen's size so text stays sharp, written by cairo's
/// (zlib-compressed) PNG encoder.
///
/// ```swift
/// try PNGRenderer.write(screen.renderTree(), to: "counter.png")
/// ```
public enum PNGRenderer {
  /// Pixels per point.
  public static let scale = 2.0

  /// The largest picture drawn, in points (taller screens are cut off at the bottom).
  public static let maximumHeight = 8_000.0

  /// The PNG file for `tree`; throws when cairo and pango cannot be opened (see
  /// `PictureLibrary`).
  public static func png(_ tree: RenderNode) throws -> Data {
    try PictureLibrary.require(for: "--png")
    let picture = ScreenPicture(tree)
    let height = min(picture.height, maximumHeight)
    let surface = sspic_cairo_image_surface_create(Int32(SSPIC_FORMAT_RGB24), Int32(picture.width * scale), Int32((height * scale).rounded(.up)))
    defer { sspic_cairo_surface_destroy(surface) }
    let cairo = sspic_cairo_create(surface)!
    sspic_cairo_scale(cairo, scale, scale)
    var opacities: [Double] = []
    for command in PictureDrawing.commands(for: picture) {
      switch command {
      case .beginGroup(let opacity):
        sspic_cairo_push_group(cairo)
        opacities.append(opacity)
      case .endGroup:
        sspic_cairo_pop_group_to_source(cairo)
        sspic_cairo_paint_with_alpha(cairo, opacities.popLast() ?? 1)
      default:
        draw(command, on: cairo)
      }
    }
    sspic_cairo_destroy(cairo)
    sspic_cairo_surface_flush(surface)
    return encode(surface)
  }

  /// Writes the PNG of `tree` to `path`.
  public static func write(_ tree: RenderNode, to path: String) throws {
    let data = try png(tree)
    do {
      try data.write(to: URL(fileURLWithPath: path))
    } catch {
      throw ToolError.usage("--png: cannot write '\(path)' (\(error.localizedDescription))")
    }
  }

  static func setColor(_ color: PictureStyle.Color, on cairo: OpaquePointer) {
    sspic_cairo_set_source_rgb(cairo, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
  }

  static func draw(_ command: PictureDrawing.Command, on cairo: OpaquePointer) {
    switch command {
    case let .rect(frame, radius, fill, stroke):
      if let fill {
        roundedRect(frame, radius: radius, on: cairo)
        setColor(fill, on: cairo)
        sspic_cairo_fill(cairo)
      }
      if let stroke {
        let inner = ScreenPicture.Frame(x: frame.x + 0.5, y: frame.y + 0.5, width: frame.width - 1, height: frame.height - 1)
        roundedRect(inner, radius: max(0, radius - 0.5), on: cairo)
        setColor(stroke, on: cairo)
        sspic_cairo_set_line_width(cairo, 1)
        sspic_cairo_stroke(cairo)
      }
    case let .circle(x, y, radius, fill, stroke):
      sspic_cairo_new_path(cairo)
      sspic_cairo_arc(cairo, x, y, radius, 0, 2 * Double.pi)
      setColor(fill, on: cairo)
      if let stroke {
        sspic_cairo_fill_preserve(cairo)
        setColor(stroke, on: cairo)
        sspic_cairo_set_line_width(cairo, 1)
        sspic_cairo_stroke(cairo)
      } else {
        sspic_cairo_fill(cairo)
      }
    case let .line(x1, y1, x2, y2, color):
      sspic_cairo_new_path(cairo)
      let vertical = x1 == x2
      sspic_cairo_move_to(cairo, x1 + (vertical ? 0.5 : 0), y1 + (vertical ? 0 : 0.5))
      sspic_cairo_line_to(cairo, x2 + (vertical ? 0.5 : 0), y2 + (vertical ? 0 : 0.5))
      setColor(color, on: cairo)
      sspic_cairo_set_line_width(cairo, 1)
      sspic_cairo_stroke(cairo)
    case let .text(string, frame, size, color, alignment, bold):
      let width = PictureFont.width(string, size: size, bold: bold)
      let x = alignment == .center ? frame.x + (frame.width - width) / 2 : frame.x
      setColor(color, on: cairo)
      PictureFont.draw(string, on: cairo, x: x, centerY: frame.y + frame.height / 2, size: size, bold: bold)
    case .beginGroup, .endGroup:
      break  // handled by png(_:), which keeps the stack of groups
    }
  }

  static func roundedRect(_ frame: ScreenPicture.Frame, radius: Double, on cairo: OpaquePointer) {
    sspic_cairo_new_path(cairo)
    let r = max(0, min(radius, frame.width / 2, frame.height / 2))
    guard r > 0 else {
      sspic_cairo_rectangle(cairo, frame.x, frame.y, frame.width, frame.height)
      return
    }
    let (left, top, right, bottom) = (frame.x, frame.y, frame.x + frame.width, frame.y + frame.height)
    sspic_cairo_arc(cairo, right - r, top + r, r, -Double.pi / 2, 0)
    sspic_cairo_arc(cairo, right - r, bottom - r, r, 0, Double.pi / 2)
    sspic_cairo_arc(cairo, left + r, bottom - r, r, Double.pi / 2, Double.pi)
    sspic_cairo_arc(cairo, left + r, top + r, r, Double.pi, 3 * Double.pi / 2)
    sspic_cairo_close_path(cairo)
  }

  /// The surface as PNG bytes, through cairo's PNG writer.
  static func encode(_ surface: OpaquePointer?) -> Data {
    final class Sink { var data = Data() }
    let sink = Sink()
    let status = withExtendedLifetime(sink) {
      sspic_cairo_surface_write_to_png_stream(
        surface,
        { closure, bytes, length in
          guard let closure, let bytes else { return Int32(SSPIC_STATUS_WRITE_ERROR) }
          Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
          return Int32(SSPIC_STATUS_SUCCESS)
        }, Unmanaged.passUnretained(sink).toOpaque())
    }
    precondition(status == SSPIC_STATUS_SUCCESS, "cairo could not encode the picture (\(status))")
    return sink.data
  }
}
