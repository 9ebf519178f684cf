import Foundation
import SendingStateHeadless
import SendingStateTestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import SendingStateTools

/// Hostile render trees: every picture finishes with bounded work and bounded output, and says
/// what it cut and where. (Counts and sizes are asserted, never time.) Not on the main actor:
/// these pictures take seconds of work, and other suites' screens need the main actor meanwhile.
@Suite("Picture budgets: hostile trees are cut, counted and named")
struct PictureBudgetTests {
  let budget = PictureBudget()

  func node(_ kind: String, _ id: String? = nil, _ properties: [RenderProperty] = [], _ children: [RenderNode] = []) -> RenderNode {
    RenderNode(kind: kind, id: id, properties: properties, children: children)
  }

  func label(_ id: String, _ text: String) -> RenderNode {
    node("label", id, [RenderProperty("text", .string(text))])
  }

  func stack(_ id: String, horizontal: Bool = false, _ children: [RenderNode]) -> RenderNode {
    node("stack", id, [RenderProperty("axis", .string(horizontal ? "horizontal" : "vertical"))], children)
  }

  func count(_ item: ScreenPicture.Item) -> Int { 1 + item.children.reduce(0) { $0 + count($1) } }

  func depth(_ item: ScreenPicture.Item) -> Int { 1 + (item.children.map(depth).max() ?? 0) }

  func texts(_ commands: [PictureDrawing.Command]) -> [String] {
    commands.compactMap { command -> String? in
      if case .text(let text, _, _, _, _, _) = command { return text }
      return nil
    }
  }

  /// The size a PNG's header gives.
  func pngSize(_ data: Data) throws -> (width: Int, height: Int) {
    let bytes = [UInt8](data.prefix(24))
    try #require(bytes.count == 24 && bytes[12..<16] == [0x49, 0x48, 0x44, 0x52])  // IHDR
    func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (word(16), word(20))
  }

  @Test("a 4 MiB label is measured cut to 512 characters, once; the cut names the label; PNG and SVG stay small")
  func hugeLabel() async throws {
    let big = String(repeating: "ab ", count: (4 << 20) / 3)
    let tree = stack("root", [label("big", big), label("small", "Hi")])
    let picture = ScreenPicture(tree)
    let cut = try #require(picture.cuts.first { $0.kind == .text })
    #expect(cut.place == "stack#root › label#big")
    #expect(cut.detail == "a text of \(big.unicodeScalars.count) characters, cut to 512")
    // Measured once in the layout, a few times to fit: never the whole text.
    #expect(picture.measure.spent <= 8 * (budget.maxTextCharacters + 1))
    let drawn = texts(PictureDrawing.commands(for: picture))
    #expect(drawn.count == 2 && drawn[0].hasSuffix("…") && drawn[0].unicodeScalars.count < 100)
    #expect(picture.measure.spent <= 16 * (budget.maxTextCharacters + 1))
    let svg = SVGRenderer.svg(tree)
    #expect(svg.utf8.count < 4_000)
    if PictureLibrary.unavailable == nil {
      let png = try PNGRenderer.png(tree)
      #expect(try pngSize(png) == (780, Int(((picture.height) * 2).rounded(.up))))
      #expect(png.count < 50_000)
      // Python's zlib reads it whole (every chunk's CRC): the cut label's text is drawn.
      let decoded = try await decodeWithPython(png)
      #expect(decoded.width == 780 && decoded.dark > 300)
    }
  }

  @Test("10,000 labels of 600 different characters: text work stays in its budget, the SVG in its bytes, the picture in its height")
  func manyLongLabels() throws {
    let labels = (0..<10_000).map { label("l\($0)", "\($0) " + String(repeating: "word ", count: 120)) }
    let tree = stack("root", labels)
    let picture = ScreenPicture(tree)
    #expect(picture.measure.spent <= budget.maxTextWork)
    #expect(picture.cuts.contains { $0.kind == .text && $0.place == "stack#root › label#l0" })
    let (svg, cuts) = SVGRenderer.render(tree, budget: budget)
    #expect(svg.utf8.count <= budget.maxSVGBytes)
    #expect(picture.measure.spent <= budget.maxTextWork)
    #expect(cuts.contains { $0.kind == .height && $0.detail.hasPrefix("a screen 200012 points tall is drawn to 8000 points") }, "\(cuts)")
    #expect(svg.contains("height=\"8000\""))
    // Only what shows is drawn, and all of it: 400 labels of 20 points show in 8,000 points
    // (the layout spent no more than half the budget on the 10,000).
    #expect(texts(PictureDrawing.commands(for: picture)).count == 400)
  }

  @Test("texts past the picture's measuring budget are not drawn, and the cut says where they start")
  func textWork() throws {
    var small = PictureBudget()
    small.maxTextWork = 2_000
    let tree = stack("root", (0..<50).map { label("l\($0)", String(repeating: "x", count: 100) + "\($0)") })
    let picture = ScreenPicture(tree, budget: small)
    #expect(picture.measure.spent <= 1_000)  // the layout's half
    let cut = try #require(picture.cuts.first { $0.kind == .textWork })
    #expect(cut.place == "stack#root › label#l9")  // 9 texts of 103 characters fit in 1,000
    let drawn = texts(PictureDrawing.commands(for: picture))
    #expect(picture.measure.spent <= 2_000)
    #expect(!drawn.isEmpty && drawn.count < 9)  // the first labels, until the rest is spent
  }

  @Test("views past 10,000 are left out and counted, with where the cut starts")
  func tooManyViews() throws {
    let tree = stack("root", (0..<12_000).map { label("l\($0)", "x") })
    let picture = ScreenPicture(tree)
    #expect(count(picture.root) == 1 + budget.maxViews)  // the screen, the root and 9,999 labels
    let cut = try #require(picture.cuts.first { $0.kind == .views })
    #expect(cut.place == "stack#root › label#l9999")
    #expect(cut.detail == "a picture lays out 10000 views; later ones are left out (and 2000 more of this kind)")
  }

  @Test("views nested deeper than 64 are left out; 1,000 levels lay out without running out of stack")
  func deepNesting() throws {
    var tree = label("leaf", "deep")
    for level in 0..<1_000 { tree = stack("s\(level)", horizontal: level % 2 == 0, [tree]) }
    let picture = ScreenPicture(tree)
    #expect(depth(picture.root) == 1 + budget.maxDepth)
    let cut = try #require(picture.cuts.first { $0.kind == .depth })
    #expect(cut.place.hasPrefix("… › "))  // the last 8 levels of 65
    #expect(cut.place.hasSuffix("stack#s935"))
    #expect(!SVGRenderer.svg(tree).isEmpty)
  }

  @Test("a segmented control of 100,000 segments draws 64; extreme numbers never trap and never reach the SVG")
  func extremeNumbers() async throws {
    let segments = (0..<100_000).map { "s\($0)" }
    let numbers: [RenderValue] = [.number(.nan), .number(.infinity), .number(-.infinity), .number(1e308), .number(-1e308), .integer(.max), .integer(.min)]
    for value in numbers {
      let tree = stack(
        "root", horizontal: true,
        [
          node("stack", "spaced", [RenderProperty("spacing", value), RenderProperty("alpha", value)], [label("a", "a"), label("b", "b")]),
          node("segmented", "seg", [RenderProperty("segments", .strings(segments)), RenderProperty("selectedIndex", value)]),
          node("stepper", "step", [RenderProperty("value", value), RenderProperty("min", value), RenderProperty("max", value)]),
          node("slider", "slide", [RenderProperty("value", value), RenderProperty("min", value), RenderProperty("max", value)]),
          node("list", "list", [RenderProperty("rows", value), RenderProperty("first", value)], [node("row", nil, [], [label("r", "row")])]),
        ])
      for width in [Double.nan, .infinity, -5, 1e300, 390] {
        let picture = ScreenPicture(tree, width: width)
        #expect(picture.width.isFinite && picture.height.isFinite)
        let commands = PictureDrawing.commands(for: picture)
        #expect(commands.count <= budget.maxCommands + budget.maxDepth)
      }
      let (svg, cuts) = SVGRenderer.render(tree, budget: budget)
      for bad in ["=\"nan", "=\"inf", "=\"-inf", "=\"-nan"] { #expect(!svg.contains(bad), "\(value)") }
      #expect(cuts.contains { $0.kind == .segments && $0.place == "stack#root › segmented#seg" && $0.detail.hasPrefix("100000 segments, of which the first 64 are drawn") })
      if PictureLibrary.unavailable == nil {
        let png = try PNGRenderer.png(tree)
        #expect(try pngSize(png).width == 780)
        #expect(try await decodeWithPython(png).width == 780)
      }
    }
  }

  @Test("a screen taller than 8,000 points is drawn to 8,000 (the PNG is 780 × 16,000 pixels at most)")
  func tallScreen() throws {
    let tree = stack("root", (0..<400).map { node("button", "b\($0)", [RenderProperty("title", .string("Button \($0)"))]) })
    let picture = ScreenPicture(tree)
    #expect(picture.height > 14_000)
    #expect(SVGRenderer.svg(tree).contains("height=\"8000\""))
    if PictureLibrary.unavailable == nil {
      let (png, cuts) = try PNGRenderer.render(tree, budget: budget)
      #expect(try pngSize(png) == (780, 16_000))
      #expect(cuts.contains { $0.kind == .height && $0.place == "screen" })
    }
  }

  @Test("drawing commands past 50,000 are left out, groups still closed; the SVG keeps to its bytes")
  func commandsAndBytes() throws {
    var small = PictureBudget()
    small.maxCommands = 100
    small.maxSVGBytes = 3_000
    let faded = node("stack", "faded", [RenderProperty("alpha", .number(0.5))], (0..<200).map { label("l\($0)", "x\($0)") })
    let picture = ScreenPicture(stack("root", [faded]), budget: small)
    let commands = PictureDrawing.commands(for: picture)
    #expect(commands.count == 101 && commands.last == .endGroup)
    #expect(picture.cuts.contains { $0.kind == .commands && $0.place == "stack#root › stack#faded › label#l98" })
    let (svg, cuts) = SVGRenderer.render(stack("root", [faded]), budget: small)
    #expect(svg.utf8.count <= 3_000 && svg.hasSuffix("</g>\n</svg>\n"))
    #expect(cuts.contains { $0.kind == .svgBytes })
  }

  @Test("translucent views: one cairo group at a time, within the group pixels; the others fade their shapes")
  func groups() {
    var groups = PNGRenderer.Groups(surfacePixels: 10_000_000)
    var steps: [String] = []
    func begin(_ opacity: Double) { steps.append(groups.begin(opacity: opacity) ? "group" : "fade") }
    func end() { steps.append(groups.end().map { "paint \($0)" } ?? "end") }
    begin(0.5)  // a cairo group
    begin(0.4)  // nested: its shapes fade
    #expect(abs(groups.shapeAlpha - 0.4) < 1e-9)
    end()
    end()
    for _ in 0..<5 {
      begin(1)
      end()
    }
    begin(0.5)  // 64 million pixels spent
    #expect(groups.shapeAlpha == 0.5)
    end()
    #expect(groups.shapeAlpha == 1)
    #expect(steps == ["group", "fade", "end", "paint 0.5"] + Array(repeating: ["group", "paint 1.0"], count: 5).flatMap { $0 } + ["fade", "end"])
  }

  @Test("a cut's description escapes control characters from a script's ids; long ids are shortened")
  func printableCuts() throws {
    let id = "\u{1b}[2J" + String(repeating: "i", count: 1_000)
    let picture = ScreenPicture(stack("root", [label(id, String(repeating: "x", count: 600))]))
    let cut = try #require(picture.cuts.first)
    #expect(cut.description.hasPrefix("text at stack#root › label#\\u{1b}[2Jiii"))
    #expect(!cut.description.contains("\u{1b}"))
    #expect(cut.place.unicodeScalars.count < 100)
  }

  #if canImport(FoundationXML)
    @Test("the SVG stays well-formed XML whatever the texts hold (markup, controls, U+FFFF)")
    func wellFormed() throws {
      let nasty = "<a href=\"x\">&amp;</a>\u{0}\u{1b}\u{FFFF}\u{7f}é"
      let tree = stack("root", [label("l", nasty), node("button", "b", [RenderProperty("title", .string(nasty))])])
      let parser = XMLParser(data: Data(SVGRenderer.svg(tree).utf8))
      #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }
  #endif
}
