import Foundation
import SendingStateHeadless

/// Draws a render tree as SVG: the screen as a phone shows it (see ``ScreenPicture`` for the
/// layout and ``PictureDrawing`` for what each control looks like). Text stays text, in the
/// pictures' font (``PictureFont``), already fitted to its frame.
///
/// ```swift
/// try SVGRenderer.write(screen.renderTree(), to: "counter.svg")
/// ```
public enum SVGRenderer {
  /// The SVG document for `tree`.
  public static func svg(_ tree: RenderNode) -> String {
    let picture = ScreenPicture(tree)
    var body = ""
    for command in PictureDrawing.commands(for: picture) {
      body += element(command)
    }
    let width = number(picture.width)
    let height = number(picture.height)
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
      font-family="\(PictureFont.family), sans-serif">
      \(body)</svg>

      """
  }

  /// Writes the SVG of `tree` to `path`.
  public static func write(_ tree: RenderNode, to path: String) throws {
    do {
      try svg(tree).write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      throw ToolError.usage("--svg: cannot write '\(path)' (\(error.localizedDescription))")
    }
  }

  static func element(_ command: PictureDrawing.Command) -> String {
    switch command {
    case let .rect(frame, radius, fill, stroke):
      var attributes = "x=\"\(number(frame.x))\" y=\"\(number(frame.y))\" width=\"\(number(frame.width))\" height=\"\(number(frame.height))\""
      if radius > 0 { attributes += " rx=\"\(number(radius))\"" }
      attributes += " fill=\"\(fill?.css ?? "none")\""
      if let stroke { attributes += " stroke=\"\(stroke.css)\"" }
      return "<rect \(attributes)/>\n"
    case let .circle(x, y, radius, fill, stroke):
      let outline = stroke.map { " stroke=\"\($0.css)\"" } ?? ""
      return "<circle cx=\"\(number(x))\" cy=\"\(number(y))\" r=\"\(number(radius))\" fill=\"\(fill.css)\"\(outline)/>\n"
    case let .line(x1, y1, x2, y2, color):
      return "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke=\"\(color.css)\"/>\n"
    case let .text(string, frame, size, color, alignment, bold):
      let x = alignment == .center ? frame.x + frame.width / 2 : frame.x
      let anchor = alignment == .center ? " text-anchor=\"middle\"" : ""
      let weight = bold ? " font-weight=\"bold\"" : ""
      return "<text x=\"\(number(x))\" y=\"\(number(frame.y + frame.height / 2))\" dominant-baseline=\"central\" "
        + "font-size=\"\(number(size))\" fill=\"\(color.css)\"\(anchor)\(weight)>\(escape(string))</text>\n"
    case let .beginGroup(opacity):
      return "<g opacity=\"\(number(opacity))\">\n"
    case .endGroup:
      return "</g>\n"
    }
  }

  /// A coordinate with at most two decimals.
  static func number(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e9 else { return "0" }
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
