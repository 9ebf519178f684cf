import Foundation
import SendingStateHeadless
import Testing

@testable import SendingStateTools

/// A minimal PNG reader for the encoder's output: checks CRCs, inflates stored blocks, checks
/// Adler-32, and returns the size and RGB rows.
private func decodeStoredPNG(_ data: Data) throws -> (width: Int, height: Int, pixels: [UInt8]) {
  let bytes = [UInt8](data)
  #expect(Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
  func u32(_ at: Int) -> Int {
    let high = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16
    return high | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
  }
  var offset = 8
  var width = 0
  var height = 0
  var idat: [UInt8] = []
  var types: [String] = []
  while offset < bytes.count {
    let length = u32(offset)
    let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
    let body = Array(bytes[(offset + 8)..<(offset + 8 + length)])
    #expect(UInt32(u32(offset + 8 + length)) == PNGRenderer.crc32(Array(type.utf8) + body), "CRC of \(type)")
    if type == "IHDR" {
      width = u32(offset + 8)
      height = u32(offset + 12)
      #expect(Array(body[8...]) == [8, 2, 0, 0, 0])
    }
    if type == "IDAT" { idat += body }
    types.append(type)
    offset += 12 + length
  }
  #expect(types == ["IHDR", "IDAT", "IEND"])
  #expect(Array(idat[0..<2]) == [0x78, 0x01])
  var raw: [UInt8] = []
  var cursor = 2
  while true {
    let final = idat[cursor] & 1
    let length = Int(idat[cursor + 1]) | Int(idat[cursor + 2]) << 8
    let complement = Int(idat[cursor + 3]) | Int(idat[cursor + 4]) << 8
    #expect(length ^ complement == 0xffff)
    raw += idat[(cursor + 5)..<(cursor + 5 + length)]
    cursor += 5 + length
    if final == 1 { break }
  }
  let high = UInt32(idat[cursor]) << 24 | UInt32(idat[cursor + 1]) << 16
  let low = UInt32(idat[cursor + 2]) << 8 | UInt32(idat[cursor + 3])
  let adler = high | low
  #expect(adler == PNGRenderer.adler32(raw))
  #expect(raw.count == (width * 3 + 1) * height)
  var pixels: [UInt8] = []
  let stride = width * 3 + 1
  for row in 0..<height {
    let start = row * stride
    #expect(raw[start] == 0)
    pixels += raw[(start + 1)..<(start + stride)]
  }
  return (width, height, pixels)
}

@Suite("Screen pictures: SVG and PNG")
@MainActor
struct PictureTests {
  func tree() -> RenderNode {
    let root = StackView(id: "root", axis: .vertical)
    root.addSubview(Label(id: "count", text: "12"))
    let row = StackView(id: "buttons", axis: .horizontal)
    row.addSubview(Button(id: "plus", title: "+"))
    let hidden = Button(id: "minus", title: "-")
    hidden.isHidden = true
    row.addSubview(hidden)
    root.addSubview(row)
    return root.renderTree()
  }

  @Test("the layout places every node, children inside their parents")
  func layout() {
    let picture = ScreenPicture(tree())
    let boxes = picture.shapes.compactMap { shape -> (Double, Double, Double, Double)? in
      if case let .box(x, y, width, height, _, _) = shape { return (x, y, width, height) }
      return nil
    }
    #expect(boxes.count == 5)
    let root = boxes[0]
    for box in boxes.dropFirst() {
      #expect(box.0 >= root.0 && box.1 >= root.1 && box.0 + box.2 <= root.0 + root.2 && box.1 + box.3 <= root.1 + root.3)
    }
    #expect(boxes[3].1 == boxes[4].1)  // horizontal stack: same row
    #expect(picture.shapes.contains(.text(x: boxes[1].0 + 8, y: boxes[1].1 + 18, "label#count: 12", hidden: false)))
  }

  @Test("the PNG decodes: valid chunks and stream, the picture's size, borders and ink where expected")
  func png() throws {
    let picture = ScreenPicture(tree())
    let image = try decodeStoredPNG(PNGRenderer.png(tree()))
    #expect(image.width == Int(picture.width.rounded(.up)) && image.height == Int(picture.height.rounded(.up)))
    func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.pixels[((y * image.width + x) * 3)..<((y * image.width + x) * 3 + 3)]) }
    #expect(pixel(0, 0) == [255, 255, 255])  // background
    #expect(pixel(8, 8) == [0x7a, 0x86, 0x9a])  // the root's top-left border
    var inked = 0
    for y in 0..<image.height { for x in 0..<image.width where pixel(x, y) == [0x17, 0x2b, 0x4d] { inked += 1 } }
    #expect(inked > 200)  // captions drawn
  }

  @Test("large pictures span several stored blocks")
  func multipleBlocks() throws {
    let root = StackView(id: "root")
    for index in 0..<60 { root.addSubview(Label(id: "l\(index)", text: String(repeating: "x", count: 40))) }
    let image = try decodeStoredPNG(PNGRenderer.png(root.renderTree()))
    #expect(image.width * image.height * 3 > 65_535 * 2)
  }

  @Test("the SVG shows every node, hidden ones dashed")
  func svg() {
    let svg = SVGRenderer.svg(tree())
    #expect(svg.contains(">label#count: 12</text>"))
    #expect(svg.contains("stroke-dasharray=\"4 3\""))
    #expect(svg.components(separatedBy: "<rect").count - 2 == 5)
  }
}
