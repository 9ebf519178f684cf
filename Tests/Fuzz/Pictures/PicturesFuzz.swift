// Fuzz target: screen pictures (`ScreenPicture`, `PictureDrawing`, `SVGRenderer`, `PNGRenderer`).
//
// The input decodes to a render tree (every kind the pictures know and unknown ones; texts short,
// long, with controls, markup and combining marks; numbers finite or not, huge, negative;
// segments by the thousand; ids with controls; nesting past the budget's depth), a screen width
// (NaN, infinite, negative, huge) and a budget (the default, or small random limits that make
// every cut happen). Invariants:
// - no crash (no Swift trap: overflow, conversions of non-finite numbers) and no hang;
// - the layout is within the budget: at most `maxViews` views, `maxDepth` levels, every frame
//   finite with a non-negative size, text work within `maxTextWork`;
// - the drawing is within the budget: commands within `maxCommands` (plus the ends of open
//   groups), groups balanced, every number finite, every text at most `maxTextCharacters` + 1
//   characters, drawn only above `maxHeight`;
// - the SVG is well-formed XML (libxml2, through FoundationXML), within `maxSVGBytes` (or its
//   bare frame), with no non-finite number; its size attributes are the picture's;
// - the PNG (when cairo and pango can be opened, for an eighth of the inputs) is a PNG of the
//   picture's size in pixels (cut at the budget's height), its bytes bounded by the surface's;
// - a label in a row draws "", its text (cut to the budget with "…"), or a prefix of it with "…"
//   (`PictureMeasure.fitted`, which only returns what it measured to fit).
import Foundation
import FoundationXML
import SendingStateHeadless
import SendingStateTools

@_cdecl("LLVMFuzzerTestOneInput")
public func picturesFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  var input = FuzzBytes(data, size)
  let budget = input.bool() ? PictureBudget() : smallBudget(&input)
  let width = input.below(4) == 0 ? input.double() : PictureStyle.screenWidth
  let drawsPNG = input.below(8) == 0
  var generator = TreeGenerator(nodesLeft: 300)
  let tree = generator.node(&input, depth: 0)
  if fuzzVerbose { fuzzLog("budget \(budget), width \(width), png \(drawsPNG)\n\(tree.text.prefix(4_000))") }
  checkPicture(tree, width: width, budget: budget)
  checkSVG(tree, budget: budget)
  if drawsPNG { checkPNG(tree, budget: budget) }
  checkFitted(&input)
  return 0
}

/// Limits small enough for every cut to happen on short inputs (zero and negative included).
func smallBudget(_ input: inout FuzzBytes) -> PictureBudget {
  var budget = PictureBudget()
  budget.maxViews = input.below(40) - 2
  budget.maxDepth = input.below(12) - 2
  budget.maxTextCharacters = input.below(80) - 2
  budget.maxSegments = input.below(10) - 2
  budget.maxTextWork = input.below(3_000) - 10
  budget.maxHeight = input.pick([input.double(), Double(input.below(600)), 0, -1])
  budget.maxCommands = input.below(200) - 2
  budget.maxSVGBytes = input.below(6_000) - 10
  return budget
}

/// Render trees from bytes.
struct TreeGenerator {
  var nodesLeft: Int

  static let kinds = [
    "label", "button", "switch", "slider", "stepper", "segmented", "textfield", "image", "list", "row", "stack", "view",
    "unit", "sections", "widget",
  ]
  static let names = [
    "text", "title", "hidden", "axis", "spacing", "alpha", "enabled", "selected", "isOn", "value", "min", "max", "segments",
    "selectedIndex", "secure", "placeholder", "image", "rows", "first",
  ]

  mutating func node(_ input: inout FuzzBytes, depth: Int) -> RenderNode {
    nodesLeft -= 1
    let kind = input.pick(TreeGenerator.kinds)
    let id: String? = input.below(4) == 0 ? nil : input.string(maxLength: 8)
    var properties: [RenderProperty] = []
    for _ in 0..<input.below(5) {
      properties.append(RenderProperty(input.pick(TreeGenerator.names), value(&input)))
    }
    var children: [RenderNode] = []
    // Mostly shallow and narrow; now and then a chain past the budget's depth, or many children.
    let count = input.below(8) == 0 ? input.below(60) : input.below(4)
    for _ in 0..<count where nodesLeft > 0 && depth < 90 {
      children.append(node(&input, depth: depth + 1))
    }
    return RenderNode(kind: kind, id: id, properties: properties, children: children)
  }

  func value(_ input: inout FuzzBytes) -> RenderValue {
    switch input.below(9) {
    case 0: return .number(input.double())
    case 1: return .integer(Int(input.integer()))
    case 2: return .bool(input.bool())
    case 3: return .strings((0..<(input.below(8) == 0 ? input.below(3_000) : input.below(6))).map { _ in input.string(maxLength: 6) })
    case 4: return .null
    case 5: return .string(longText(&input))
    case 6: return .string(input.pick(["horizontal", "vertical"]))
    default: return .string(input.string(maxLength: 16))
    }
  }

  /// A text past the picture's cut: a short piece repeated, perhaps with combining marks.
  func longText(_ input: inout FuzzBytes) -> String {
    var piece = input.string(maxLength: 4)
    if input.bool() { piece += "\u{301}\u{308}" }
    return String(repeating: piece.isEmpty ? "w" : piece, count: 1 + input.below(700))
  }
}

func frameIsSane(_ frame: ScreenPicture.Frame) -> Bool {
  frame.x.isFinite && frame.y.isFinite && frame.width.isFinite && frame.height.isFinite && frame.width >= 0
    && frame.height >= 0
}

func checkPicture(_ tree: RenderNode, width: Double, budget: PictureBudget) {
  let picture = ScreenPicture(tree, width: width, budget: budget)
  fuzzCheck(picture.width.isFinite && picture.height.isFinite && picture.width > 0, "picture size \(picture.width) × \(picture.height)")
  var views = 0
  var deepest = 0
  func walk(_ item: ScreenPicture.Item, level: Int) {
    views += 1
    deepest = max(deepest, level)
    fuzzCheck(frameIsSane(item.frame), "a frame that is not finite or has a negative size: \(item.frame) (\(item.kind))")
    for child in item.children { walk(child, level: level + 1) }
  }
  for child in picture.root.children { walk(child, level: 1) }
  // (A root the budget leaves out is still drawn as an empty item: one view.)
  fuzzCheck(views <= max(1, budget.maxViews), "\(views) views laid out, past \(budget.maxViews)")
  fuzzCheck(deepest <= max(1, budget.maxDepth), "views nested \(deepest) deep, past \(budget.maxDepth)")
  fuzzCheck(picture.textWork <= max(0, budget.maxTextWork), "text work \(picture.textWork), past \(budget.maxTextWork)")

  let commands = PictureDrawing.commands(for: picture)
  fuzzCheck(picture.textWork <= max(0, budget.maxTextWork), "text work \(picture.textWork) after drawing, past \(budget.maxTextWork)")
  var open = 0
  var ends = 0
  let drawnHeight = min(picture.height, budget.maxHeight)
  for command in commands {
    switch command {
    case .beginGroup(let opacity):
      fuzzCheck(opacity.isFinite && opacity >= 0 && opacity < 1, "group opacity \(opacity)")
      open += 1
    case .endGroup:
      open -= 1
      ends += 1
      fuzzCheck(open >= 0, "a group ends that never began")
    case let .rect(frame, radius, _, _):
      fuzzCheck(frame.x.isFinite && frame.y.isFinite && frame.width.isFinite && frame.height.isFinite && radius.isFinite, "rect \(frame) \(radius)")
    case let .circle(x, y, radius, _, _):
      fuzzCheck(x.isFinite && y.isFinite && radius.isFinite, "circle \(x) \(y) \(radius)")
    case let .line(x1, y1, x2, y2, _):
      fuzzCheck(x1.isFinite && y1.isFinite && x2.isFinite && y2.isFinite, "line \(x1) \(y1) \(x2) \(y2)")
    case let .text(text, frame, size, _, _, _):
      fuzzCheck(frame.x.isFinite && frame.y.isFinite && frame.width.isFinite && size.isFinite, "text frame \(frame)")
      fuzzCheck(text.unicodeScalars.count <= max(0, budget.maxTextCharacters) + 1 || text == "−" || text == "+", "a drawn text of \(text.unicodeScalars.count) characters")
      fuzzCheck(frame.y < max(drawnHeight, 0) || frame.y <= 0, "a text drawn at \(frame.y), below the picture's \(drawnHeight) points")
    }
  }
  fuzzCheck(open == 0, "\(open) groups left open")
  fuzzCheck(commands.count - ends <= max(1, budget.maxCommands), "\(commands.count) commands, past \(budget.maxCommands)")
  for cut in picture.cuts {
    fuzzCheck(!cut.description.unicodeScalars.contains { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }, "a cut with a control character: \(cut)")
  }
}

/// A delegate that only remembers a parse error.
final class XMLCheck: NSObject, XMLParserDelegate {
  var error: Error?
  func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }
}

func checkSVG(_ tree: RenderNode, budget: PictureBudget) {
  let svg = SVGRenderer.svg(tree, budget: budget)
  let frame = 400  // the head and the tail alone (no budget can refuse them)
  fuzzCheck(svg.utf8.count <= max(budget.maxSVGBytes, frame), "an SVG of \(svg.utf8.count) bytes, past \(budget.maxSVGBytes)")
  for bad in ["=\"nan", "=\"inf", "=\"-nan", "=\"-inf"] { fuzzCheck(!svg.contains(bad), "the SVG holds \(bad)") }
  let parser = XMLParser(data: Data(svg.utf8))
  let check = XMLCheck()
  parser.delegate = check
  fuzzCheck(parser.parse(), "the SVG is not well-formed XML: \(String(describing: check.error ?? parser.parserError))\n\(svg.prefix(2_000))")
}

func checkPNG(_ tree: RenderNode, budget: PictureBudget) {
  // Compressing the PNG is most of a picture's time (zlib): tall ones (a 780 × 16,000 surface)
  // are kept for the unit tests; here at most 150 points (the cut at the height is still checked).
  var budget = budget
  budget.maxHeight = min(budget.maxHeight, 150)
  let png: Data
  do {
    png = try PNGRenderer.png(tree, budget: budget)
  } catch ToolError.usage(let message) where message.contains("pictures need cairo and pango") {
    return  // (not on this machine: the SVG is checked all the same)
  } catch {
    fuzzFail("a PNG failed: \(error)")
  }
  let picture = ScreenPicture(tree, budget: budget)
  let bytes = [UInt8](png.prefix(24))
  fuzzCheck(bytes.count == 24 && bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG")
  func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
  let width = Int(max(1, min((picture.width * 2).rounded(.up), 32_767)))
  let shown = min(picture.height, budget.maxHeight)
  let height = Int(max(1, min((shown * 2).rounded(.up), 32_767)))
  fuzzCheck(word(16) == width && word(20) == height, "a PNG of \(word(16)) × \(word(20)) for \(width) × \(height)")
  fuzzCheck(png.count <= (width * 4 + 1) * height + 4_096, "a PNG of \(png.count) bytes for \(width) × \(height) pixels")
}

/// A label shortened to fit a row: what is drawn is its text (cut to the budget, with "…"), or a
/// prefix of it with "…".
func checkFitted(_ input: inout FuzzBytes) {
  let text = input.bool() ? input.string(maxLength: 40) : TreeGenerator(nodesLeft: 0).longText(&input)
  let width = input.below(3) == 0 ? input.double() : Double(input.below(400))
  var children = [RenderNode(kind: "label", id: "l", properties: [RenderProperty("text", .string(text))], children: [])]
  for _ in 0..<input.below(4) { children.append(RenderNode(kind: "switch", id: nil, properties: [], children: [])) }
  let row = RenderNode(kind: "stack", id: "row", properties: [RenderProperty("axis", .string("horizontal"))], children: children)
  let drawn = PictureDrawing.commands(for: ScreenPicture(row, width: width)).compactMap { command -> String? in
    if case .text(let text, _, _, _, _, _) = command { return text }
    return nil
  }
  fuzzCheck(drawn.count <= 1, "one label drew \(drawn.count) texts")
  guard let fitted = drawn.first else { return }
  let cut = PictureBudget().maxTextCharacters
  let scalars = Array(text.unicodeScalars)
  if fitted == text { return }
  fuzzCheck(fitted.hasSuffix("…"), "'\(fitted)' is shorter than '\(text.prefix(60))' without an ellipsis")
  let kept = Array(fitted.unicodeScalars.dropLast())
  fuzzCheck(kept.count <= cut, "a fitted text of \(kept.count) characters")
  fuzzCheck(scalars.starts(with: kept), "'\(fitted)' is not a prefix of '\(text.prefix(60))'")
  fuzzCheck(kept.count < scalars.count, "'\(fitted)' keeps the whole of '\(text.prefix(60))' and adds an ellipsis")
}
