import Foundation
import SendingStateHeadless

/// Draws a render tree as a simple SVG: stacks lay out their children, every node is a box
/// with its kind, id and main text, so a person can look at a screen instead of reading a tree.
///
/// ```swift
/// try SVGRenderer.write(screen.root.renderTree(), to: "counter.svg")
/// ```
public enum SVGRenderer {
  struct Box {
    var width: Double
    var height: Double
  }

  static let padding = 8.0
  static let lineHeight = 18.0

  /// The SVG document for `tree`.
  public static func svg(_ tree: RenderNode) -> String {
    let size = measure(tree)
    var body = ""
    draw(tree, x: padding, y: padding, into: &body)
    let width = Int(size.width + 2 * padding)
    let height = Int(size.height + 2 * padding)
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
      font-family="sans-serif" font-size="12">
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

  static func caption(_ node: RenderNode) -> String {
    let name = node.kind + (node.id.map { "#" + $0 } ?? "")
    for key in ["text", "title", "value", "isOn", "selectedIndex", "placeholder", "type"] {
      if let value = node[property: key], value != .null {
        if case .string(let text) = value { return "\(name): \(text)" }
        return "\(name): \(key)=\(value.jsonText)"
      }
    }
    return name
  }

  static func isHorizontal(_ node: RenderNode) -> Bool {
    node[property: "axis"] == .string("horizontal")
  }

  static func measure(_ node: RenderNode) -> Box {
    let label = Box(width: Double(caption(node).count) * 7 + 2 * padding, height: lineHeight + padding)
    guard !node.children.isEmpty else { return label }
    let children = node.children.map(measure)
    let spacing = padding
    if isHorizontal(node) {
      let width = children.reduce(0) { $0 + $1.width } + spacing * Double(children.count - 1)
      let height = children.map(\.height).max() ?? 0
      return Box(width: max(label.width, width + 2 * padding), height: label.height + height + padding)
    }
    let width = children.map(\.width).max() ?? 0
    let height = children.reduce(0) { $0 + $1.height } + spacing * Double(children.count - 1)
    return Box(width: max(label.width, width + 2 * padding), height: label.height + height + padding)
  }

  static func draw(_ node: RenderNode, x: Double, y: Double, into body: inout String) {
    let box = measure(node)
    let hidden = node[property: "hidden"] == .bool(true)
    let fill = node.children.isEmpty ? "#f4f6fb" : "#ffffff"
    let stroke = hidden ? "#cccccc\" stroke-dasharray=\"4 3" : "#7a869a"
    body += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(box.width)\" height=\"\(box.height)\" rx=\"4\" fill=\"\(fill)\" stroke=\"\(stroke)\"/>\n"
    body += "<text x=\"\(x + padding)\" y=\"\(y + lineHeight)\" fill=\"\(hidden ? "#aaaaaa" : "#172b4d")\">\(escape(caption(node)))</text>\n"
    var cursorX = x + padding
    var cursorY = y + lineHeight + padding
    for child in node.children {
      draw(child, x: cursorX, y: cursorY, into: &body)
      let size = measure(child)
      if isHorizontal(node) { cursorX += size.width + padding } else { cursorY += size.height + padding }
    }
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
