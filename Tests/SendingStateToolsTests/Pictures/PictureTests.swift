import Foundation
import SendingStateHeadless
import SendingStateLua
import SendingStateTestSupport
import Testing

@testable import SendingStateTools

/// What Python's zlib (scripts/preview/png_info.py, independent of cairo and libpng) reads from a
/// PNG: size, file size, the colours of some pixels, and how many pixels are dark (text).
struct DecodedPNG: Decodable {
  var width: Int
  var height: Int
  var bytes: Int
  var pixels: [String: [Int]]
  var dark: Int
}

func decodeWithPython(_ png: Data, pixels: [(Int, Int)] = []) async throws -> DecodedPNG {
  let file = FileManager.default.temporaryDirectory.appendingPathComponent("ss-picture-\(UUID().uuidString).png")
  try png.write(to: file)
  defer { try? FileManager.default.removeItem(at: file) }
  let child = try ChildProcess(
    executable: "/usr/bin/env",
    arguments: ["python3", repoPath("scripts/preview/png_info.py"), file.path] + pixels.map { "\($0.0),\($0.1)" },
    directory: repositoryRoot.path)
  child.closeInput()
  let status = await child.wait()
  try #require(status == 0, "png_info.py failed: \(child.errors)")
  return try JSONDecoder().decode(DecodedPNG.self, from: Data(child.output.utf8))
}

@Suite("Screen pictures: layout, drawing, SVG and PNG")
@MainActor
struct PictureTests {
  /// The counter's shape: a title, a count, two buttons in a row (one disabled), a hidden label.
  func counterTree(minusEnabled: Bool = false) -> RenderNode {
    let root = StackView(id: "root", axis: .vertical, spacing: 8)
    root.addSubview(Label(id: "title", text: "Product"))
    root.addSubview(Label(id: "count", text: "12"))
    let row = StackView(id: "buttons", axis: .horizontal, spacing: 4)
    let minus = Button(id: "minus", title: "-")
    minus.isEnabled = minusEnabled
    row.addSubview(minus)
    let plus = Button(id: "plus", title: "+")
    plus.isSelected = true
    row.addSubview(plus)
    root.addSubview(row)
    let hidden = Label(id: "secret", text: "hidden")
    hidden.isHidden = true
    root.addSubview(hidden)
    root.addSubview(Label(id: "footer", text: "#@$ äé"))
    return root.renderTree()
  }

  func item(_ picture: ScreenPicture, _ id: String) -> (item: ScreenPicture.Item, x: Double, y: Double)? {
    func find(_ item: ScreenPicture.Item, _ x: Double, _ y: Double) -> (ScreenPicture.Item, Double, Double)? {
      let (ax, ay) = (x + item.frame.x, y + item.frame.y)
      if item.id == id { return (item, ax, ay) }
      for child in item.children { if let match = find(child, ax, ay) { return match } }
      return nil
    }
    return find(picture.root, 0, 0)
  }

  @Test("a vertical stack stacks its children with its spacing inside the margins; hidden views take no space")
  func verticalLayout() throws {
    let picture = ScreenPicture(counterTree())
    #expect(picture.width == PictureStyle.screenWidth)
    let root = try #require(item(picture, "root"))
    #expect(root.x == PictureStyle.margin && root.y == PictureStyle.margin)
    #expect(root.item.frame.width == PictureStyle.screenWidth - 2 * PictureStyle.margin)
    let title = try #require(item(picture, "title"))
    let count = try #require(item(picture, "count"))
    let buttons = try #require(item(picture, "buttons"))
    let footer = try #require(item(picture, "footer"))
    #expect(count.y == title.y + PictureStyle.labelHeight + 8)
    #expect(buttons.y == count.y + PictureStyle.labelHeight + 8)
    #expect(footer.y == buttons.y + PictureStyle.buttonHeight + 8)  // the hidden label between takes nothing
    let secret = try #require(item(picture, "secret"))
    #expect(secret.item.frame.width == 0 && secret.item.frame.height == 0)
    #expect(picture.height == footer.y + PictureStyle.labelHeight + PictureStyle.margin)
  }

  @Test("a horizontal stack places children left to right with its spacing; buttons fit their titles")
  func horizontalLayout() throws {
    let picture = ScreenPicture(counterTree())
    let minus = try #require(item(picture, "minus"))
    let plus = try #require(item(picture, "plus"))
    #expect(plus.x == minus.x + minus.item.frame.width + 4)
    #expect(plus.y == minus.y)
    #expect(minus.item.frame.width == PictureStyle.buttonMinWidth)
    let long = StackView(id: "row", axis: .horizontal, spacing: 4)
    long.addSubview(Button(id: "b", title: "A rather long title"))
    let field = TextField(id: "field")
    long.addSubview(field)
    let wide = ScreenPicture(long.renderTree())
    let button = try #require(item(wide, "b"))
    let text = try #require(item(wide, "field"))
    #expect(button.item.frame.width == PictureFont.width("A rather long title", size: PictureStyle.textSize) + 2 * PictureStyle.buttonPadding)
    #expect(text.x + text.item.frame.width == PictureStyle.screenWidth - PictureStyle.margin)  // the field takes the rest
  }

  @Test("text is measured in the real font: wider strings are wider, and too-long labels shrink with an ellipsis")
  func textMeasure() throws {
    #expect(PictureFont.width("WWWW", size: 15) > PictureFont.width("iiii", size: 15))
    #expect(PictureFont.width("+", size: 15) > 4 && PictureFont.width("+", size: 15) < 15)
    let fitted = PictureFont.fitted(String(repeating: "tea ", count: 40), width: 100, size: 15)
    #expect(fitted.hasSuffix("…") && PictureFont.width(fitted, size: 15) <= 100)
    let row = StackView(id: "row", axis: .horizontal, spacing: 0)
    row.addSubview(Label(id: "long", text: String(repeating: "word ", count: 40)))
    row.addSubview(Switch(id: "toggle"))
    let picture = ScreenPicture(row.renderTree())
    let toggle = try #require(item(picture, "toggle"))
    #expect(toggle.x + toggle.item.frame.width <= PictureStyle.screenWidth - PictureStyle.margin + 0.001)
    let texts = PictureDrawing.commands(for: picture).compactMap { command -> String? in
      if case .text(let text, _, _, _, _, _) = command { return text }
      return nil
    }
    #expect(texts.count == 1 && texts[0].hasSuffix("…"))
  }

  @Test("drawing shows states: disabled and selected buttons, a switch that is on, a slider's value, alpha")
  func drawingStates() throws {
    let commands = PictureDrawing.commands(for: ScreenPicture(counterTree()))
    let fills = commands.compactMap { command -> PictureStyle.Color? in
      if case .rect(_, _, let fill, _) = command { return fill }
      return nil
    }
    #expect(fills.contains(PictureStyle.quietFill))  // minus: disabled
    #expect(fills.contains(PictureStyle.tint))  // plus: selected
    #expect(commands.contains { if case .text("-", _, _, PictureStyle.disabledInk, _, _) = $0 { true } else { false } })
    #expect(commands.contains { if case .text("+", _, _, PictureStyle.background, _, _) = $0 { true } else { false } })
    #expect(!commands.contains { if case .text("hidden", _, _, _, _, _) = $0 { true } else { false } })

    let controls = StackView(id: "root", axis: .vertical, spacing: 8)
    controls.addSubview(Switch(id: "on", isOn: true))
    let slider = Slider(id: "level", value: 3, minimumValue: 0, maximumValue: 4)
    controls.addSubview(slider)
    let faded = Label(id: "faded", text: "faded")
    faded.alpha = 0.5
    controls.addSubview(faded)
    let drawn = PictureDrawing.commands(for: ScreenPicture(controls.renderTree()))
    #expect(drawn.contains { if case .rect(_, _, PictureStyle.switchOn, _) = $0 { true } else { false } })
    let tracks = drawn.compactMap { command -> Double? in
      if case .rect(let frame, 2, _, _) = command { return frame.width }
      return nil
    }
    try #require(tracks.count == 2)
    #expect(abs(tracks[1] / tracks[0] - 0.75) < 0.001)  // filled to 3 of 0…4
    #expect(drawn.contains(.beginGroup(opacity: 0.5)) && drawn.last == .endGroup)
  }

  @Test("a secure text field draws a dot per character, never its text; a plain one draws its text")
  func secureField() throws {
    let fields = StackView(id: "root", axis: .vertical, spacing: 8)
    let password = TextField(id: "password", text: "hunter2")
    password.isSecure = true
    fields.addSubview(password)
    fields.addSubview(TextField(id: "name", text: "Ada"))
    let drawn = PictureDrawing.commands(for: ScreenPicture(fields.renderTree()))
    let texts = drawn.compactMap { command -> String? in
      if case .text(let string, _, _, _, _, _) = command { return string }
      return nil
    }
    #expect(texts.contains(String(repeating: "\u{2022}", count: 7)))
    #expect(texts.contains("Ada"))
    #expect(!texts.contains { $0.contains("hunter") })
    #expect(fields.renderTree().text.contains("secure=true"))
  }

  @Test("the PNG is compressed, twice the screen's size, and shows the screen (checked by Python's zlib)")
  func png() async throws {
    let picture = ScreenPicture(counterTree(minusEnabled: true))
    let data = try PNGRenderer.png(counterTree(minusEnabled: true))
    let plus = try #require(item(picture, "plus"))
    let minus = try #require(item(picture, "minus"))
    let scale = PNGRenderer.scale
    let inside = (Int((minus.x + 3) * scale), Int((minus.y + 3) * scale))
    let plusInside = (Int((plus.x + 3) * scale), Int((plus.y + 3) * scale))
    let decoded = try await decodeWithPython(data, pixels: [(1, 1), inside, plusInside])
    #expect(decoded.width == Int(picture.width * scale) && decoded.height == Int((picture.height * scale).rounded(.up)))
    #expect(decoded.bytes == data.count)
    #expect(decoded.bytes < decoded.width * decoded.height * 3 / 10)  // compressed
    #expect(decoded.pixels["1,1"] == [255, 255, 255])
    let fill = PictureStyle.tintFill
    #expect(decoded.pixels["\(inside.0),\(inside.1)"] == [Int(fill.red), Int(fill.green), Int(fill.blue)])
    let tint = PictureStyle.tint
    #expect(decoded.pixels["\(plusInside.0),\(plusInside.1)"] == [Int(tint.red), Int(tint.green), Int(tint.blue)])
    #expect(decoded.dark > 300)  // the labels' text
  }

  @Test("a Lua screen's tree (indices from 1) draws the selected segment bold, and no other")
  func selectedSegment() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-picture-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("sort.lua").path
    try """
      return {
        state = {},
        layout = function(ui) return ui.segmented { id = "sort", segments = { "Name", "Price", "Date" }, selectedIndex = 2 } end,
        configure = function() end,
      }
      """.write(toFile: path, atomically: true, encoding: .utf8)
    let screen = try LuaScreen(path: path)
    defer { screen.close() }
    let bold = PictureDrawing.commands(for: ScreenPicture(screen.renderTree())).compactMap { command -> String? in
      if case .text(let text, _, _, _, _, true) = command { return text }
      return nil
    }
    #expect(bold == ["Price"])
  }

  @Test("the counter example's PNG is under 200 KB")
  func counterExample() async throws {
    let screen = try LuaScreen(path: repoPath("examples/counter/counter.lua"))
    defer { screen.close() }
    let data = try PNGRenderer.png(screen.renderTree())
    let decoded = try await decodeWithPython(data)
    #expect(decoded.bytes < 200_000)
    #expect(decoded.width == 780)
  }

  @Test("the SVG draws the same commands: text as text in the picture font, groups for alpha")
  func svg() {
    let svg = SVGRenderer.svg(counterTree())
    #expect(svg.contains("font-family=\"DejaVu Sans, sans-serif\""))
    #expect(svg.contains(">12</text>") && svg.contains(">Product</text>"))
    #expect(svg.contains(">#@$ äé</text>"))
    #expect(!svg.contains(">hidden</text>"))
    #expect(svg.contains("fill=\"\(PictureStyle.quietFill.css)\""))
    #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
  }
}
