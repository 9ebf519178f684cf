import SendingStateHeadless

/// The layout of a screen picture, shared by the SVG and PNG renderers: stacks lay out their
/// children, every node is a box with a caption (kind, id and main text).
///
/// ```swift
/// let picture = ScreenPicture(tree)
/// picture.width; picture.shapes
/// ```
public struct ScreenPicture: Sendable {
  /// One thing to draw.
  public enum Shape: Sendable, Equatable {
    /// A box: position, size, whether it is a leaf (filled) and hidden (dashed, grey).
    case box(x: Double, y: Double, width: Double, height: Double, leaf: Bool, hidden: Bool)
    /// A caption with its baseline position.
    case text(x: Double, y: Double, String, hidden: Bool)
  }

  /// Padding inside and between boxes.
  public static let padding = 8.0
  /// The height of a caption line.
  public static let lineHeight = 18.0
  /// The width of one character of a caption.
  public static let characterWidth = 7.0

  /// The picture's size.
  public let width: Double
  /// The picture's size.
  public let height: Double
  /// The shapes, in drawing order.
  public let shapes: [Shape]

  /// Lays out `tree`.
  public init(_ tree: RenderNode) {
    let size = ScreenPicture.measure(tree)
    var shapes: [Shape] = []
    ScreenPicture.place(tree, x: Self.padding, y: Self.padding, into: &shapes)
    width = size.width + 2 * Self.padding
    height = size.height + 2 * Self.padding
    self.shapes = shapes
  }

  /// `kind#id: text` (or the node's main property).
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

  static func measure(_ node: RenderNode) -> (width: Double, height: Double) {
    let label = (width: Double(caption(node).count) * characterWidth + 2 * padding, height: lineHeight + padding)
    guard !node.children.isEmpty else { return label }
    let children = node.children.map(measure)
    let gaps = padding * Double(children.count - 1)
    if isHorizontal(node) {
      let width = children.reduce(0) { $0 + $1.width } + gaps
      return (max(label.width, width + 2 * padding), label.height + (children.map(\.height).max() ?? 0) + padding)
    }
    let height = children.reduce(0) { $0 + $1.height } + gaps
    return (max(label.width, (children.map(\.width).max() ?? 0) + 2 * padding), label.height + height + padding)
  }

  static func place(_ node: RenderNode, x: Double, y: Double, into shapes: inout [Shape]) {
    let size = measure(node)
    let hidden = node[property: "hidden"] == .bool(true)
    shapes.append(.box(x: x, y: y, width: size.width, height: size.height, leaf: node.children.isEmpty, hidden: hidden))
    shapes.append(.text(x: x + padding, y: y + lineHeight, caption(node), hidden: hidden))
    var cursorX = x + padding
    var cursorY = y + lineHeight + padding
    for child in node.children {
      place(child, x: cursorX, y: cursorY, into: &shapes)
      let childSize = measure(child)
      if isHorizontal(node) { cursorX += childSize.width + padding } else { cursorY += childSize.height + padding }
    }
  }
}
