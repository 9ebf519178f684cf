import Foundation
import SendingStateHeadless

/// Draws a render tree as a PNG (same layout as the SVG; captions in a built-in pixel font).
///
/// No image library is needed: the encoder writes stored (uncompressed) deflate blocks, which
/// every PNG reader accepts.
///
/// ```swift
/// try PNGRenderer.write(screen.root.renderTree(), to: "counter.png")
/// ```
public enum PNGRenderer {
  /// An RGB image.
  struct Canvas {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int) {
      self.width = width
      self.height = height
      pixels = [UInt8](repeating: 255, count: width * height * 3)
    }

    mutating func set(_ x: Int, _ y: Int, _ color: (UInt8, UInt8, UInt8)) {
      guard x >= 0, y >= 0, x < width, y < height else { return }
      let offset = (y * width + x) * 3
      pixels[offset] = color.0
      pixels[offset + 1] = color.1
      pixels[offset + 2] = color.2
    }

    func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
      let offset = (y * width + x) * 3
      return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
  }

  static let ink: (UInt8, UInt8, UInt8) = (0x17, 0x2b, 0x4d)
  static let faint: (UInt8, UInt8, UInt8) = (0xaa, 0xaa, 0xaa)
  static let border: (UInt8, UInt8, UInt8) = (0x7a, 0x86, 0x9a)
  static let leafFill: (UInt8, UInt8, UInt8) = (0xf4, 0xf6, 0xfb)

  /// Rasterizes `tree`.
  static func canvas(_ tree: RenderNode) -> Canvas {
    let picture = ScreenPicture(tree)
    var canvas = Canvas(width: Int(picture.width.rounded(.up)), height: Int(picture.height.rounded(.up)))
    for shape in picture.shapes {
      switch shape {
      case let .box(x, y, width, height, leaf, hidden):
        let (left, top, right, bottom) = (Int(x), Int(y), Int(x + width) - 1, Int(y + height) - 1)
        if leaf {
          for row in top...bottom { for column in left...right { canvas.set(column, row, leafFill) } }
        }
        let color = hidden ? faint : border
        for column in left...right where !hidden || column % 6 < 3 {
          canvas.set(column, top, color)
          canvas.set(column, bottom, color)
        }
        for row in top...bottom where !hidden || row % 6 < 3 {
          canvas.set(left, row, color)
          canvas.set(right, row, color)
        }
      case let .text(x, y, text, hidden):
        // Glyphs are 3×5 cells drawn 2×2, 7 pixels apart; the caption's baseline is `y`.
        var penX = Int(x)
        let top = Int(y) - 10
        for character in text {
          for (row, line) in PixelFont.glyph(character).enumerated() {
            for (column, cell) in line.enumerated() where cell == "#" {
              for dy in 0..<2 {
                for dx in 0..<2 { canvas.set(penX + column * 2 + dx, top + row * 2 + dy, hidden ? faint : ink) }
              }
            }
          }
          penX += Int(ScreenPicture.characterWidth)
        }
      }
    }
    return canvas
  }

  /// The PNG file for `tree`.
  public static func png(_ tree: RenderNode) -> Data {
    encode(canvas(tree))
  }

  /// Writes the PNG of `tree` to `path`.
  public static func write(_ tree: RenderNode, to path: String) throws {
    do {
      try png(tree).write(to: URL(fileURLWithPath: path))
    } catch {
      throw ToolError.usage("--png: cannot write '\(path)' (\(error.localizedDescription))")
    }
  }

  // MARK: - Encoding

  static func encode(_ canvas: Canvas) -> Data {
    var raw = [UInt8]()
    raw.reserveCapacity((canvas.width * 3 + 1) * canvas.height)
    for row in 0..<canvas.height {
      raw.append(0)  // filter: none
      raw += canvas.pixels[(row * canvas.width * 3)..<((row + 1) * canvas.width * 3)]
    }
    var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    var header = [UInt8]()
    header += bigEndian(UInt32(canvas.width))
    header += bigEndian(UInt32(canvas.height))
    header += [8, 2, 0, 0, 0]  // 8-bit RGB, deflate, no filter method extras, no interlace
    png += chunk("IHDR", header)
    png += chunk("IDAT", zlibStored(raw))
    png += chunk("IEND", [])
    return png
  }

  /// A zlib stream of stored (uncompressed) deflate blocks.
  static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let length = min(65_535, data.count - offset)
      let final: UInt8 = offset + length == data.count ? 1 : 0
      out.append(final)
      out += [UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8((~length >> 8) & 0xff)]
      out += data[offset..<(offset + length)]
      offset += length
    } while offset < data.count
    out += bigEndian(adler32(data))
    return out
  }

  static func chunk(_ type: String, _ body: [UInt8]) -> Data {
    let typeBytes = Array(type.utf8)
    var data = Data(bigEndian(UInt32(body.count)))
    data += typeBytes
    data += body
    data += bigEndian(crc32(typeBytes + body))
    return data
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
  }

  static let crcTable: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }

  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return (b << 16) | a
  }
}
