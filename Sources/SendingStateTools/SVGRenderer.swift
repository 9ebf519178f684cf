import Foundation
import SendingStateHeadless

/// Draws a render tree as SVG (see ``ScreenPicture`` for the layout).
///
/// ```swift
/// try SVGRenderer.write(screen.root.renderTree(), to: "counter.svg")
/// ```
public enum SVGRenderer {
  /// The SVG document for `tree`.
  public static func svg(_ tree: RenderNode) -> String {
    let picture = ScreenPicture(tree)
    var body = ""
    for shape in picture.shapes {
      switch shape {
      case let .box(x, y, width, height, leaf, hidden):
        let stroke = hidden ? "#cccccc\" stroke-dasharray=\"4 3" : "#7a869a"
        body += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\" rx=\"4\" fill=\"\(leaf ? "#f4f6fb" : "#ffffff")\" stroke=\"\(stroke)\"/>\n"
      case let .text(x, y, text, hidden):
        body += "<text x=\"\(x)\" y=\"\(y)\" fill=\"\(hidden ? "#aaaaaa" : "#172b4d")\">\(escape(text))</text>\n"
      }
    }
    let width = Int(picture.width)
    let height = Int(picture.height)
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
      font-family="monospace" font-size="12">
      <rect width="100%" height="100%" fill="#ffffff"/>
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

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
