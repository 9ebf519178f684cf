import CPicture
import Foundation

/// A picture's pixels, read from PNG bytes by cairo's own PNG reader (libpng underneath), and
/// written back by cairo's writer: what picture snapshots compare.
///
/// Each pixel is `0xAARRGGBB` (alpha premultiplied, as cairo keeps it), row by row from the top.
///
/// ```swift
/// let image = try PictureImage(png: try PNGRenderer.png(screen.renderTree()), what: "the screen")
/// print(image.width, image.height)
/// ```
struct PictureImage: Equatable {
  /// Width in pixels.
  let width: Int
  /// Height in pixels.
  let height: Int
  /// `width × height` pixels, row by row.
  var pixels: [UInt32]

  /// The most pixels a picture read from a file may have (64 Mi, 256 MiB decoded): its header is
  /// checked before cairo allocates anything, so a file claiming a huge size costs nothing.
  static let maxPixels = 64 << 20

  /// A picture of `width × height` pixels, all `fill`.
  init(width: Int, height: Int, fill: UInt32 = 0xFFFF_FFFF) {
    self.width = width
    self.height = height
    self.pixels = Array(repeating: fill, count: width * height)
  }

  /// The width and height a PNG's header gives, read without decoding anything.
  ///
  /// - Throws: ``ToolError/usage(_:)`` naming `what` when the bytes do not start with a PNG
  ///   signature and header, when the header is 16 bits a channel (newer cairo decodes those at
  ///   16 bytes a pixel; pictures are 8), or when it claims more than ``maxPixels``.
  static func size(of png: Data, what: String) throws -> (width: Int, height: Int) {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let start = png.startIndex
    // The signature (8), then the first chunk: length (4), "IHDR" (4), 13 bytes of header, CRC (4).
    guard png.count >= 33, Array(png[start..<start + 8]) == signature, Array(png[start + 12..<start + 16]) == Array("IHDR".utf8)
    else {
      throw ToolError.usage("\(what) is not a PNG file (it does not start with the PNG signature and header)")
    }
    func bigEndian(at offset: Int) -> Int { png[start + offset..<start + offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    let width = bigEndian(at: 16)
    let height = bigEndian(at: 20)
    guard png[start + 24] <= 8 else {
      throw ToolError.usage("\(what) has \(png[start + 24]) bits a channel: screen pictures have 8 (record it again)")
    }
    guard width > 0, height > 0, width <= Self.maxPixels / height else {
      throw ToolError.usage("\(what) says it is \(width) × \(height) pixels: more than a picture may have (\(Self.maxPixels) pixels)")
    }
    return (width, height)
  }

  /// Decodes `png`; `what` names it in errors (a file's path, say).
  ///
  /// - Throws: ``ToolError/usage(_:)`` when the bytes are not a PNG cairo can read (see
  ///   ``size(of:what:)`` for what is refused before decoding), or when cairo and pango cannot
  ///   be opened.
  init(png: Data, what: String) throws {
    _ = try Self.size(of: png, what: what)
    try PictureLibrary.require(for: "reading \(what)")
    final class Source {
      let bytes: Data
      var offset: Int
      init(_ bytes: Data) {
        self.bytes = bytes
        offset = bytes.startIndex
      }
    }
    let source = Source(png)
    let surface = withExtendedLifetime(source) {
      sspic_cairo_image_surface_create_from_png_stream(
        { closure, buffer, length in
          guard let closure, let buffer else { return Int32(SSPIC_STATUS_READ_ERROR) }
          let source = Unmanaged<Source>.fromOpaque(closure).takeUnretainedValue()
          let count = Int(length)
          guard count <= source.bytes.endIndex - source.offset else { return Int32(SSPIC_STATUS_READ_ERROR) }
          source.bytes.copyBytes(to: buffer, from: source.offset..<source.offset + count)
          source.offset += count
          return Int32(SSPIC_STATUS_SUCCESS)
        }, Unmanaged.passUnretained(source).toOpaque())
    }
    defer { sspic_cairo_surface_destroy(surface) }
    let status = sspic_cairo_surface_status(surface)
    guard status == SSPIC_STATUS_SUCCESS else {
      throw ToolError.usage("\(what): cairo could not read it as a PNG (cairo status \(status): a damaged or cut-off file?)")
    }
    sspic_cairo_surface_flush(surface)
    let format = sspic_cairo_image_surface_get_format(surface)
    width = Int(sspic_cairo_image_surface_get_width(surface))
    height = Int(sspic_cairo_image_surface_get_height(surface))
    let stride = Int(sspic_cairo_image_surface_get_stride(surface))
    guard format == SSPIC_FORMAT_ARGB32 || format == SSPIC_FORMAT_RGB24, let data = sspic_cairo_image_surface_get_data(surface)
    else {
      throw ToolError.usage("\(what): cairo read it in a pixel format pictures do not use (\(format))")
    }
    // RGB24 leaves the top byte unused: an opaque pixel either way.
    let opaque: UInt32 = format == SSPIC_FORMAT_RGB24 ? 0xFF00_0000 : 0
    var pixels: [UInt32] = []
    pixels.reserveCapacity(width * height)
    for row in 0..<height {
      let line = UnsafeRawPointer(data + row * stride)
      for column in 0..<width {
        pixels.append(line.load(fromByteOffset: column * 4, as: UInt32.self) | opaque)
      }
    }
    self.pixels = pixels
  }

  /// The picture as PNG bytes, written by cairo.
  func png() throws -> Data {
    try PictureLibrary.require(for: "writing a picture")
    let surface = sspic_cairo_image_surface_create(Int32(SSPIC_FORMAT_ARGB32), Int32(width), Int32(height))
    defer { sspic_cairo_surface_destroy(surface) }
    guard Int(sspic_cairo_image_surface_get_width(surface)) == width, let data = sspic_cairo_image_surface_get_data(surface) else {
      throw ToolError.usage("cairo could not make a picture of \(width) × \(height) pixels (out of memory?)")
    }
    sspic_cairo_surface_flush(surface)
    let stride = Int(sspic_cairo_image_surface_get_stride(surface))
    for row in 0..<height {
      let line = UnsafeMutableRawPointer(data + row * stride)
      for column in 0..<width {
        line.storeBytes(of: pixels[row * width + column], toByteOffset: column * 4, as: UInt32.self)
      }
    }
    sspic_cairo_surface_mark_dirty(surface)
    return try PNGRenderer.encode(surface)
  }
}
