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
  /// The SVG document for `tree`, within `budget` (at most ``PictureBudget/maxSVGBytes``).
  public static func svg(_ tree: RenderNode, budget: PictureBudget = PictureBudget()) -> String {
    render(tree, budget: budget).svg
  }

  /// The SVG document for `tree` and what the picture cut to stay within `budget`.
  static func render(_ tree: RenderNode, budget: PictureBudget) -> (svg: String, cuts: [PictureCut]) {
    let picture = ScreenPicture(tree, budget: budget)
    let commands = PictureDrawing.commands(for: picture)
    let width = number(picture.width)
    let height = number(min(picture.height, budget.maxHeight))
    let head = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
      font-family="\(PictureFont.family), sans-serif">

      """
    let tail = "</svg>\n"
    // Elements up to the byte budget; groups still open are closed (their ends are counted in).
    var body = ""
    var bytes = head.utf8.count + tail.utf8.count
    var open = 0
    var full = false
    for command in commands {
      if full {
        if command == .endGroup, open > 0 {
          body += "</g>\n"
          open -= 1
        }
        continue
      }
      let text = element(command)
      let closing = (open + (command == .endGroup ? -1 : 0) + (isBegin(command) ? 1 : 0)) * 5
      guard bytes + text.utf8.count + closing <= budget.maxSVGBytes else {
        full = true
        picture.measure.note(.svgBytes, at: "screen", "an SVG is at most \(budget.maxSVGBytes) bytes; later elements are left out")
        continue
      }
      bytes += text.utf8.count
      body += text
      if isBegin(command) { open += 1 }
      if command == .endGroup { open -= 1 }
    }
    return (head + body + tail, picture.cuts)
  }

  static func isBegin(_ command: PictureDrawing.Command) -> Bool {
    if case .beginGroup = command { return true }
    return false
  }

  /// Writes the SVG of `tree` to `path`; what the picture cut goes to `warnings`.
  public static func write(
    _ tree: RenderNode, to path: String, budget: PictureBudget = PictureBudget(),
    warnings: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
  ) throws {
    let (svg, cuts) = render(tree, budget: budget)
    do {
      try svg.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      throw ToolError.usage("--svg: cannot write '\(path)' (\(error.localizedDescription))")
    }
    for cut in cuts { warnings("--svg: warning: the picture was cut to stay within its budget: \(cut)") }
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

  /// `text` as XML character data: markup escaped, and characters XML cannot hold (controls but
  /// tab, newline and return; U+FFFE, U+FFFF) replaced with U+FFFD.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
