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

  /// The largest picture drawn, in points (taller screens are cut off at the bottom): the
  /// default ``PictureBudget/maxHeight``.
  public static let maximumHeight = PictureBudget().maxHeight

  /// Pixels that translucent views' groups may composite in one picture; past them (and inside
  /// another group), a translucent view's opacity is put on each of its shapes instead.
  static let groupPixels = 64_000_000

  /// The PNG file for `tree`; throws when cairo and pango cannot be opened (see
  /// `PictureLibrary`).
  public static func png(_ tree: RenderNode, budget: PictureBudget = PictureBudget()) throws -> Data {
    try render(tree, budget: budget).png
  }

  /// The PNG file for `tree` and what the picture cut to stay within `budget`.
  static func render(_ tree: RenderNode, budget: PictureBudget) throws -> (png: Data, cuts: [PictureCut]) {
    try PictureLibrary.require(for: "--png")
    let picture = ScreenPicture(tree, budget: budget)
    let commands = PictureDrawing.commands(for: picture)
    // The surface: the picture's width, and its height up to the budget's (cairo's images are at
    // most 32,767 pixels a side).
    let width = Int32(max(1, min((picture.width * scale).rounded(.up), 32_767)))
    let height = Int32(max(1, min((min(picture.height, budget.maxHeight) * scale).rounded(.up), 32_767)))
    let surface = sspic_cairo_image_surface_create(Int32(SSPIC_FORMAT_RGB24), width, height)
    defer { sspic_cairo_surface_destroy(surface) }
    guard sspic_cairo_image_surface_get_width(surface) == width else {
      throw ToolError.usage("--png: cairo could not make a picture of \(width) × \(height) pixels (out of memory?)")
    }
    let cairo = sspic_cairo_create(surface)!
    sspic_cairo_scale(cairo, scale, scale)
    var groups = Groups(surfacePixels: Int(width) * Int(height))
    for command in commands {
      switch command {
      case .beginGroup(let opacity):
        if groups.begin(opacity: opacity) { sspic_cairo_push_group(cairo) }
      case .endGroup:
        if let alpha = groups.end() {
          sspic_cairo_pop_group_to_source(cairo)
          sspic_cairo_paint_with_alpha(cairo, alpha)
        }
      default:
        draw(command, on: cairo, alpha: groups.shapeAlpha)
      }
    }
    while let alpha = groups.end() {  // (commands close their groups; this only guards cairo's state)
      sspic_cairo_pop_group_to_source(cairo)
      sspic_cairo_paint_with_alpha(cairo, alpha)
    }
    sspic_cairo_destroy(cairo)
    sspic_cairo_surface_flush(surface)
    return (try encode(surface), picture.cuts)
  }

  /// Writes the PNG of `tree` to `path`; what the picture cut goes to `warnings`.
  public static func write(
    _ tree: RenderNode, to path: String, budget: PictureBudget = PictureBudget(),
    warnings: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
  ) throws {
    let (data, cuts) = try render(tree, budget: budget)
    do {
      try data.write(to: URL(fileURLWithPath: path))
    } catch {
      throw ToolError.usage("--png: cannot write '\(path)' (\(error.localizedDescription))")
    }
    for cut in cuts { warnings("--png: warning: the picture was cut to stay within its budget: \(cut)") }
  }

  /// Translucent views' groups: one cairo group at a time, within ``groupPixels`` per picture;
  /// the others put their opacity on their shapes.
  struct Groups {
    let surfacePixels: Int
    var spent = 0
    /// Open groups: whether each is a cairo group, and its opacity.
    var open: [(real: Bool, opacity: Double)] = []

    init(surfacePixels: Int) {
      self.surfacePixels = surfacePixels
    }

    /// Opens a group; true when it is a cairo group (the caller pushes it).
    mutating func begin(opacity: Double) -> Bool {
      let real = !open.contains { $0.real } && spent <= PNGRenderer.groupPixels - surfacePixels
      if real { spent += surfacePixels }
      open.append((real, opacity))
      return real
    }

    /// Closes the innermost group; the alpha to paint it with when it was a cairo group.
    mutating func end() -> Double? {
      guard let last = open.popLast() else { return nil }
      guard last.real else { return nil }
      return last.opacity * fading(after: open.lastIndex { $0.real })
    }

    /// The alpha of shapes drawn now: the opacities of the groups open since the last cairo one.
    var shapeAlpha: Double { fading(after: open.lastIndex { $0.real }) }

    private func fading(after index: Int?) -> Double {
      open[(index.map { $0 + 1 } ?? 0)...].reduce(1) { $0 * $1.opacity }
    }
  }

  static func setColor(_ color: PictureStyle.Color, alpha: Double, on cairo: OpaquePointer) {
    let (red, green, blue) = (Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
    if alpha >= 1 {
      sspic_cairo_set_source_rgb(cairo, red, green, blue)
    } else {
      sspic_cairo_set_source_rgba(cairo, red, green, blue, max(0, alpha))
    }
  }

  static func draw(_ command: PictureDrawing.Command, on cairo: OpaquePointer, alpha: Double) {
    func setColor(_ color: PictureStyle.Color, on cairo: OpaquePointer) { PNGRenderer.setColor(color, alpha: alpha, on: cairo) }
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
  static func encode(_ surface: OpaquePointer?) throws -> Data {
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
    guard status == SSPIC_STATUS_SUCCESS else { throw ToolError.usage("--png: cairo could not encode the picture (status \(status))") }
    return sink.data
  }
}
