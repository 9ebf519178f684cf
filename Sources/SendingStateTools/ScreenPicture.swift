import SendingStateHeadless

/// A screen laid out as a phone shows it: every node of a render tree gets a frame.
///
/// One layout serves the PNG and SVG pictures and the preview page (which places real HTML
/// controls at these frames), so all three agree. The rules follow a phone's stack views:
///
/// - a vertical stack places its children top to bottom, `spacing` apart, stretching them to
///   its width (switches, steppers and images keep their own width);
/// - a horizontal stack places them left to right, `spacing` apart, centred vertically; text
///   fields, sliders and lists (and stacks holding one) share the width left over, and labels
///   shrink (their text is shortened with "…") when the content is too wide;
/// - controls have a phone's sizes (``PictureStyle``); a label is as wide as its text;
/// - a list is as tall as its visible rows; a row insets its content;
/// - hidden views take no space (their frames are empty); other containers (`view`, `unit`,
///   `sections`, kinds to come) lay their children out like a stack, vertical unless their
///   `axis` says otherwise.
///
/// It reads a Lua screen's render tree (`LuaScreen.renderTree()`), whose indices count from 1
/// (the selected segment, a list's first visible row); a headless `View.renderTree()` counts
/// them from 0 and would show the segment after the selected one.
///
/// ```swift
/// let picture = ScreenPicture(screen.renderTree())
/// picture.root.children[0].frame   // the root view, inside the screen's margins
/// ```
public struct ScreenPicture: Sendable {
  /// A rectangle in points.
  public struct Frame: Sendable, Hashable {
    /// The origin, in the parent item's coordinates.
    public var x, y: Double
    /// The size.
    public var width, height: Double

    /// Creates a frame.
    public init(x: Double, y: Double, width: Double, height: Double) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }
  }

  /// A laid-out node: the render node's kind, id and properties, and its frame.
  public struct Item: Sendable, Hashable {
    /// The view kind.
    public var kind: String
    /// The view id.
    public var id: String?
    /// The node's properties, as in the render tree.
    public var properties: [RenderProperty]
    /// The frame, in the parent item's coordinates.
    public var frame: Frame
    /// The children, in render-tree order (hidden ones included, with empty frames).
    public var children: [Item]

    /// The value of the property `name`, or `nil`.
    public subscript(property name: String) -> RenderValue? {
      properties.first { $0.name == name }?.value
    }

    /// Whether the view is hidden.
    public var isHidden: Bool { self[property: "hidden"] == .bool(true) }
  }

  /// The screen: a `screen` item as wide as the phone, holding the laid-out tree.
  public let root: Item

  /// The picture's width.
  public var width: Double { root.frame.width }
  /// The picture's height (the content's, plus margins).
  public var height: Double { root.frame.height }

  /// Lays out `tree` on a screen `width` points wide.
  public init(_ tree: RenderNode, width: Double = PictureStyle.screenWidth) {
    let margin = PictureStyle.margin
    var content = ScreenPicture.place(tree, width: width - 2 * margin)
    content.frame.x = margin
    content.frame.y = margin
    root = Item(
      kind: "screen", id: nil, properties: [], frame: Frame(x: 0, y: 0, width: width, height: content.frame.height + 2 * margin),
      children: [content])
  }

  // MARK: - Measuring

  /// A node's natural size, and whether it takes leftover width in a horizontal stack.
  struct Natural {
    var width: Double
    var height: Double
    var flexible: Bool
    var shrinks: Bool
  }

  static func isHidden(_ node: RenderNode) -> Bool { node[property: "hidden"] == .bool(true) }

  static func text(_ node: RenderNode, _ name: String) -> String {
    if case .string(let text) = node[property: name] { return text }
    return ""
  }

  static func isHorizontal(_ node: RenderNode) -> Bool {
    node[property: "axis"] == .string("horizontal")
  }

  static func spacing(_ node: RenderNode) -> Double {
    switch node[property: "spacing"] {
    case .number(let value): max(0, min(value, 200))
    case .integer(let value): Double(max(0, min(value, 200)))
    default: 0
    }
  }

  /// Kinds that keep their own width in a vertical stack.
  static let fixedWidthKinds: Set<String> = ["switch", "stepper", "image"]

  static func natural(_ node: RenderNode) -> Natural {
    if isHidden(node) { return Natural(width: 0, height: 0, flexible: false, shrinks: false) }
    let size = PictureStyle.textSize
    switch node.kind {
    case "label":
      // Rounded up with a point to spare, so browsers (which round glyph advances their own way)
      // never shorten a label that fits.
      let width = PictureFont.width(text(node, "text"), size: size)
      return Natural(width: width > 0 ? width.rounded(.up) + 1 : 0, height: PictureStyle.labelHeight, flexible: false, shrinks: true)
    case "button":
      let width = PictureFont.width(text(node, "title"), size: size) + 2 * PictureStyle.buttonPadding
      return Natural(width: max(PictureStyle.buttonMinWidth, width), height: PictureStyle.buttonHeight, flexible: false, shrinks: true)
    case "switch":
      return Natural(width: PictureStyle.switchWidth, height: PictureStyle.switchHeight, flexible: false, shrinks: false)
    case "slider":
      return Natural(width: PictureStyle.sliderMinWidth, height: PictureStyle.sliderHeight, flexible: true, shrinks: true)
    case "stepper":
      return Natural(width: PictureStyle.stepperWidth, height: PictureStyle.stepperHeight, flexible: false, shrinks: false)
    case "segmented":
      var width = 0.0
      if case .strings(let segments) = node[property: "segments"] {
        let widest = segments.map { PictureFont.width($0, size: size) + 2 * PictureStyle.segmentPadding }.max() ?? 0
        width = Double(segments.count) * max(PictureStyle.segmentMinWidth, widest)
      }
      return Natural(width: width, height: PictureStyle.segmentHeight, flexible: false, shrinks: true)
    case "textfield":
      return Natural(width: PictureStyle.fieldMinWidth, height: PictureStyle.fieldHeight, flexible: true, shrinks: true)
    case "image":
      return Natural(width: PictureStyle.imageSize, height: PictureStyle.imageSize, flexible: false, shrinks: false)
    case "list":
      let rows = node.children.filter { !isHidden($0) }.map(natural)
      let height = rows.isEmpty ? PictureStyle.emptyListHeight : rows.reduce(0) { $0 + $1.height }
      return Natural(width: rows.map(\.width).max() ?? 0, height: height, flexible: true, shrinks: true)
    case "row":
      let content = stacked(node, horizontal: false, spacing: 0)
      return Natural(
        width: content.width + 2 * PictureStyle.rowInsetX, height: content.height + 2 * PictureStyle.rowInsetY,
        flexible: content.flexible, shrinks: true)
    default:  // stacks; view, unit, sections and kinds to come are containers too (vertical by default)
      return stacked(node, horizontal: isHorizontal(node), spacing: spacing(node))
    }
  }

  static func stacked(_ node: RenderNode, horizontal: Bool, spacing: Double) -> Natural {
    let children = node.children.filter { !isHidden($0) }.map(natural)
    let gaps = spacing * Double(max(0, children.count - 1))
    let flexible = children.contains { $0.flexible }
    if horizontal {
      return Natural(
        width: children.reduce(0) { $0 + $1.width } + gaps, height: children.map(\.height).max() ?? 0, flexible: flexible,
        shrinks: true)
    }
    return Natural(
      width: children.map(\.width).max() ?? 0, height: children.reduce(0) { $0 + $1.height } + gaps, flexible: flexible,
      shrinks: true)
  }

  // MARK: - Placing

  /// Lays out `node` in `width` points; the item's origin is left at zero for the parent to set.
  static func place(_ node: RenderNode, width: Double) -> Item {
    var item = Item(kind: node.kind, id: node.id, properties: node.properties, frame: Frame(x: 0, y: 0, width: 0, height: 0), children: [])
    if isHidden(node) {
      item.children = node.children.map { place($0, width: 0) }
      return item
    }
    let size = natural(node)
    item.frame.width = max(0, width)
    item.frame.height = size.height
    switch node.kind {
    case "row":
      let inner = placeColumn(node.children, width: width - 2 * PictureStyle.rowInsetX, spacing: 0)
      item.children = inner.map { child in
        var child = child
        child.frame.x += PictureStyle.rowInsetX
        child.frame.y += PictureStyle.rowInsetY
        return child
      }
    case "list":
      item.children = placeColumn(node.children, width: width, spacing: 0, stretchAll: true)
    case "label", "button", "switch", "slider", "stepper", "segmented", "textfield", "image":
      item.children = node.children.map { place($0, width: 0) }
    default:
      item.children =
        isHorizontal(node)
        ? placeRow(node.children, width: width, spacing: spacing(node), height: size.height)
        : placeColumn(node.children, width: width, spacing: spacing(node))
    }
    return item
  }

  static func placeColumn(_ nodes: [RenderNode], width: Double, spacing: Double, stretchAll: Bool = false) -> [Item] {
    var y = 0.0
    var first = true
    return nodes.map { node in
      guard !isHidden(node) else { return place(node, width: 0) }
      if !first { y += spacing }
      first = false
      let size = natural(node)
      let childWidth = fixedWidthKinds.contains(node.kind) && !stretchAll ? min(size.width, width) : width
      var child = place(node, width: childWidth)
      child.frame.y = y
      y += child.frame.height
      return child
    }
  }

  static func placeRow(_ nodes: [RenderNode], width: Double, spacing: Double, height: Double) -> [Item] {
    let visible = nodes.enumerated().filter { !isHidden($0.element) }
    let sizes = visible.map { natural($0.element) }
    let gaps = spacing * Double(max(0, visible.count - 1))
    var widths = sizes.map(\.width)
    let leftover = width - gaps - widths.reduce(0, +)
    let flexible = sizes.indices.filter { sizes[$0].flexible }
    if leftover > 0, !flexible.isEmpty {
      for index in flexible { widths[index] += leftover / Double(flexible.count) }
    } else if leftover < 0 {
      // Too wide: the views that can shrink give up width in proportion to theirs.
      let shrinkable = sizes.indices.filter { sizes[$0].shrinks }
      let total = shrinkable.reduce(0) { $0 + widths[$1] }
      if total > 0 {
        let factor = max(0, (total + leftover) / total)
        for index in shrinkable { widths[index] *= factor }
      }
    }
    var placed: [Int: Item] = [:]
    var x = 0.0
    for (position, entry) in visible.enumerated() {
      var child = place(entry.element, width: widths[position])
      child.frame.x = x
      child.frame.y = ((height - child.frame.height) / 2).rounded()
      x += widths[position] + spacing
      placed[entry.offset] = child
    }
    return nodes.enumerated().map { placed[$0.offset] ?? place($0.element, width: 0) }
  }
}
