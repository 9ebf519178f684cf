/// How a picture compares with its snapshot, pixel by pixel, and a picture of the differences.
///
/// A pixel differs when one of its channels (alpha, red, green, blue) differs by more than
/// ``channelTolerance``: text rendered by another version of a font library moves edges by a
/// few levels, which stays under it. The pictures match when they have the same size and the
/// differing pixels are at most a fraction (the tolerance) of all.
///
/// ```swift
/// let comparison = PictureComparison(expected: stored, actual: now)
/// comparison.matches(tolerance: 0.001)
/// ```
struct PictureComparison {
  /// The most a channel may differ (of 255) for a pixel to count as the same.
  static let channelTolerance: UInt32 = 16

  /// Pixels that differ (every pixel, when the sizes differ).
  let differing: Int
  /// Pixels compared (the larger picture's, when the sizes differ).
  let total: Int
  /// Whether both pictures have the same width and height.
  let sameSize: Bool
  /// The differences: each differing pixel red, the snapshot faded to grey elsewhere (the new
  /// picture, faded, when the sizes differ).
  let picture: PictureImage

  init(expected: PictureImage, actual: PictureImage) {
    sameSize = expected.width == actual.width && expected.height == actual.height
    guard sameSize else {
      differing = max(expected.pixels.count, actual.pixels.count)
      total = differing
      var faded = actual
      for index in faded.pixels.indices { faded.pixels[index] = Self.faded(actual.pixels[index]) }
      picture = faded
      return
    }
    var diff = expected
    var count = 0
    for index in expected.pixels.indices {
      let (old, new) = (expected.pixels[index], actual.pixels[index])
      if old != new && Self.differs(old, new) {
        count += 1
        diff.pixels[index] = 0xFFFF_0000
      } else {
        diff.pixels[index] = Self.faded(old)
      }
    }
    differing = count
    total = expected.pixels.count
    picture = diff
  }

  /// Whether the pictures match: the same size, and at most `tolerance` (a fraction from 0 to
  /// 1) of the pixels differ.
  func matches(tolerance: Double) -> Bool {
    sameSize && Double(differing) <= tolerance * Double(total)
  }

  /// Whether any channel of `a` and `b` differs by more than ``channelTolerance``.
  static func differs(_ a: UInt32, _ b: UInt32) -> Bool {
    for shift in stride(from: 0, to: 32, by: 8) {
      let x = (a >> UInt32(shift)) & 0xFF
      let y = (b >> UInt32(shift)) & 0xFF
      if (x > y ? x - y : y - x) > channelTolerance { return true }
    }
    return false
  }

  /// `pixel` as a light grey of its brightness (opaque).
  static func faded(_ pixel: UInt32) -> UInt32 {
    let red = (pixel >> 16) & 0xFF
    let green = (pixel >> 8) & 0xFF
    let blue = pixel & 0xFF
    let grey = 178 + (red * 3 + green * 6 + blue) / 10 * 77 / 255
    return 0xFF00_0000 | grey << 16 | grey << 8 | grey
  }
}
