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
/// Every picture is bounded (``PictureBudget``): at most 10,000 views, nested at most 64 deep,
/// texts of at most 512 characters, a few million characters measured in all. What a picture
/// leaves out is in ``cuts``, with where.
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

  /// The budget, and what the layout (and then the drawing) measured and cut.
  package let measure: PictureMeasure

  /// What the picture left out or shortened to stay within its budget, so far (drawing it may
  /// add more), each with where.
  public var cuts: [PictureCut] { measure.cuts }

  /// The characters of text measured for this picture so far (its layout, then its drawing),
  /// each text counting at least ``PictureBudget/minimumTextWork``: at most
  /// ``PictureBudget/maxTextWork``.
  public var textWork: Int { measure.spent }

  /// Lays out `tree` on a screen `width` points wide, within `budget`.
  public init(_ tree: RenderNode, width: Double = PictureStyle.screenWidth, budget: PictureBudget = PictureBudget()) {
    let measure = PictureMeasure(budget: budget)
    self.measure = measure
    let screenWidth = width.isFinite ? min(max(width, 2 * PictureStyle.margin), 100_000) : PictureStyle.screenWidth
    var sizer = Sizer(measure: measure)
    let sized = sizer.size(tree, depth: 1, path: [])
    let margin = PictureStyle.margin
    var content = sized.map { ScreenPicture.place($0, width: screenWidth - 2 * margin) }
      ?? Item(kind: tree.kind, id: tree.id, properties: [], frame: Frame(x: 0, y: 0, width: 0, height: 0), children: [])
    content.frame.x = margin
    content.frame.y = margin
    root = Item(
      kind: "screen", id: nil, properties: [], frame: Frame(x: 0, y: 0, width: screenWidth, height: content.frame.height + 2 * margin),
      children: [content])
    measure.layoutDone()
  }

  /// A view's place in the tree, for cuts: `stack#root › stack#buttons › button#plus` (the last
  /// 8 levels).
  static func path(_ components: [String]) -> String {
    guard !components.isEmpty else { return "screen" }
    let shown = (components.count > 8 ? ["…"] : []) + components.suffix(8)
    return shown.joined(separator: " › ")
  }

  /// `kind#id`, each cut at 64 characters (ids are a script's text).
  static func component(kind: String, id: String?) -> String {
    func short(_ text: String) -> String {
      let scalars = text.unicodeScalars
      guard let end = scalars.index(scalars.startIndex, offsetBy: 64, limitedBy: scalars.endIndex), end != scalars.endIndex else {
        return text
      }
      return String(scalars[..<end]) + "…"
    }
    return id.map { "\(short(kind))#\(short($0))" } ?? short(kind)
  }

  // MARK: - Measuring

  /// A node's natural size, and whether it takes leftover width in a horizontal stack.
  struct Natural {
    var width: Double
    var height: Double
    var flexible: Bool
    var shrinks: Bool

    static let none = Natural(width: 0, height: 0, flexible: false, shrinks: false)
  }

  /// A node within the budget, with its natural size, measured once.
  struct Sized {
    var kind: String
    var id: String?
    var properties: [RenderProperty]
    var hidden: Bool
    var horizontal: Bool
    var spacing: Double
    var natural: Natural
    var children: [Sized]
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
    let value: Double
    switch node[property: "spacing"] {
    case .number(let number): value = number
    case .integer(let integer): value = Double(integer)
    default: return 0
    }
    return value.isFinite ? max(0, min(value, 200)) : 0
  }

  /// Kinds that keep their own width in a vertical stack.
  static let fixedWidthKinds: Set<String> = ["switch", "stepper", "image"]

  /// The first pass: a copy of the tree within the budget (views, depth, segments), each node
  /// with its natural size, measured once.
  struct Sizer {
    let measure: PictureMeasure
    var views = 0

    init(measure: PictureMeasure) {
      self.measure = measure
    }

    /// `node` sized, or nil when the budget leaves it out.
    mutating func size(_ node: RenderNode, depth: Int, path: [String]) -> Sized? {
      let budget = measure.budget
      let here = path + [ScreenPicture.component(kind: node.kind, id: node.id)]
      guard depth <= budget.maxDepth else {
        measure.note(.depth, at: ScreenPicture.path(here), "views nested deeper than \(budget.maxDepth) are left out")
        return nil
      }
      guard views < budget.maxViews else {
        measure.note(.views, at: ScreenPicture.path(here), "a picture lays out \(budget.maxViews) views; later ones are left out")
        return nil
      }
      views += 1
      let hidden = ScreenPicture.isHidden(node)
      var children: [Sized] = []
      for child in node.children {
        guard let sized = size(child, depth: depth + 1, path: here) else { continue }
        children.append(sized)
      }
      var sized = Sized(
        kind: node.kind, id: node.id, properties: node.properties, hidden: hidden, horizontal: ScreenPicture.isHorizontal(node),
        spacing: ScreenPicture.spacing(node), natural: .none, children: children)
      if !hidden { sized.natural = natural(node, sized, place: ScreenPicture.path(here)) }
      return sized
    }

    func natural(_ node: RenderNode, _ sized: Sized, place: @autoclosure () -> String) -> Natural {
      let size = PictureStyle.textSize
      switch node.kind {
      case "label":
        // Rounded up with a point to spare, so browsers (which round glyph advances their own way)
        // never shorten a label that fits.
        let width = measure.width(ScreenPicture.text(node, "text"), size: size, at: place())
        return Natural(width: width > 0 ? width.rounded(.up) + 1 : 0, height: PictureStyle.labelHeight, flexible: false, shrinks: true)
      case "button":
        let width = measure.width(ScreenPicture.text(node, "title"), size: size, at: place()) + 2 * PictureStyle.buttonPadding
        return Natural(width: max(PictureStyle.buttonMinWidth, width), height: PictureStyle.buttonHeight, flexible: false, shrinks: true)
      case "switch":
        return Natural(width: PictureStyle.switchWidth, height: PictureStyle.switchHeight, flexible: false, shrinks: false)
      case "slider":
        return Natural(width: PictureStyle.sliderMinWidth, height: PictureStyle.sliderHeight, flexible: true, shrinks: true)
      case "stepper":
        return Natural(width: PictureStyle.stepperWidth, height: PictureStyle.stepperHeight, flexible: false, shrinks: false)
      case "segmented":
        var width = 0.0
        if case .strings(let all) = node[property: "segments"] {
          let segments = ScreenPicture.segments(all, measure: measure, place: place())
          let widest = segments.map { measure.width($0, size: size, at: place()) + 2 * PictureStyle.segmentPadding }.max() ?? 0
          width = Double(segments.count) * max(PictureStyle.segmentMinWidth, widest)
        }
        return Natural(width: width, height: PictureStyle.segmentHeight, flexible: false, shrinks: true)
      case "textfield":
        return Natural(width: PictureStyle.fieldMinWidth, height: PictureStyle.fieldHeight, flexible: true, shrinks: true)
      case "image":
        return Natural(width: PictureStyle.imageSize, height: PictureStyle.imageSize, flexible: false, shrinks: false)
      case "list":
        let rows = sized.children.filter { !$0.hidden }.map(\.natural)
        let height = rows.isEmpty ? PictureStyle.emptyListHeight : rows.reduce(0) { $0 + $1.height }
        return Natural(width: rows.map(\.width).max() ?? 0, height: height, flexible: true, shrinks: true)
      case "row":
        let content = ScreenPicture.stacked(sized.children, horizontal: false, spacing: 0)
        return Natural(
          width: content.width + 2 * PictureStyle.rowInsetX, height: content.height + 2 * PictureStyle.rowInsetY,
          flexible: content.flexible, shrinks: true)
      default:  // stacks; view, unit, sections and kinds to come are containers too (vertical by default)
        return ScreenPicture.stacked(sized.children, horizontal: sized.horizontal, spacing: sized.spacing)
      }
    }
  }

  /// The segments a segmented control shows: at most the budget's (a cut is noted past it).
  static func segments(_ all: [String], measure: PictureMeasure, place: @autoclosure () -> String) -> ArraySlice<String> {
    let limit = max(0, measure.budget.maxSegments)
    if all.count > limit {
      measure.note(.segments, at: place(), "\(all.count) segments, of which the first \(limit) are drawn")
    }
    return all.prefix(limit)
  }

  static func stacked(_ nodes: [Sized], horizontal: Bool, spacing: Double) -> Natural {
    let children = nodes.filter { !$0.hidden }.map(\.natural)
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
  static func place(_ node: Sized, width: Double) -> Item {
    var item = Item(kind: node.kind, id: node.id, properties: node.properties, frame: Frame(x: 0, y: 0, width: 0, height: 0), children: [])
    if node.hidden {
      item.children = node.children.map { place($0, width: 0) }
      return item
    }
    item.frame.width = max(0, width)
    item.frame.height = node.natural.height
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
        node.horizontal
        ? placeRow(node.children, width: width, spacing: node.spacing, height: node.natural.height)
        : placeColumn(node.children, width: width, spacing: node.spacing)
    }
    return item
  }

  static func placeColumn(_ nodes: [Sized], width: Double, spacing: Double, stretchAll: Bool = false) -> [Item] {
    var y = 0.0
    var first = true
    return nodes.map { node in
      guard !node.hidden else { return place(node, width: 0) }
      if !first { y += spacing }
      first = false
      let childWidth = fixedWidthKinds.contains(node.kind) && !stretchAll ? min(node.natural.width, width) : width
      var child = place(node, width: childWidth)
      child.frame.y = y
      y += child.frame.height
      return child
    }
  }

  static func placeRow(_ nodes: [Sized], width: Double, spacing: Double, height: Double) -> [Item] {
    let visible = nodes.enumerated().filter { !$0.element.hidden }
    let sizes = visible.map(\.element.natural)
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
