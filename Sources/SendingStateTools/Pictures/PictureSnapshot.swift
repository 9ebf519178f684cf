import Foundation
import SendingStateHeadless

/// `assert.picture_matches`: a screen's picture against its snapshot, a PNG beside the spec.
///
/// Both are decoded by cairo (``PictureImage``) and compared pixel by pixel
/// (``PictureComparison``). On a mismatch the picture now and a picture of the differences are
/// written beside the snapshot (`NAME.actual.png`, `NAME.diff.png`) and the failure names them;
/// a match removes them. With `update` (`--update-snapshots`), a missing or differing snapshot is
/// recorded (one that matches within the tolerance is left as it is, so records do not churn).
///
/// ```swift
/// let outcome = try PictureSnapshot.check(screen.renderTree(), file: "__snapshots__/s/start.png", update: false, tolerance: 0.001)
/// ```
enum PictureSnapshot {
  /// What a check found.
  enum Outcome: Equatable {
    /// The picture matches its snapshot.
    case matched
    /// The snapshot was recorded (or re-recorded) at this path.
    case recorded(String)
    /// A failure message: no snapshot yet, or what differs and where to look.
    case failed(String)
  }

  /// The default tolerance: at most 0.01 % of the pixels may differ (a few stray edge pixels;
  /// one changed digit of a label is a few hundred).
  static let defaultTolerance = 0.0001

  /// The largest snapshot file read (64 MiB: a screen's picture, however tall, compresses to a
  /// few MiB).
  static let maxFileBytes = 64 << 20

  /// Checks the picture of `tree` against the PNG at `file`.
  ///
  /// - Throws: ``ToolError`` when the picture cannot be drawn, the snapshot cannot be read as
  ///   a PNG, or a file cannot be written.
  ///
  /// - Parameter leaving: whether a mismatch leaves the picture now and the differences beside the
  ///   snapshot (not for a negated assertion, which expects one).
  static func check(_ tree: RenderNode, file: String, update: Bool, tolerance: Double, leaving: Bool = true) throws -> Outcome {
    let png = try PNGRenderer.png(tree)
    let base = file.hasSuffix(".png") ? String(file.dropLast(4)) : file
    let actualFile = base + ".actual.png"
    let diffFile = base + ".diff.png"
    let files = FileManager.default
    func clean() {
      try? files.removeItem(atPath: actualFile)
      try? files.removeItem(atPath: diffFile)
    }
    func record() throws -> Outcome {
      let folder = (file as NSString).deletingLastPathComponent
      if !folder.isEmpty { try files.createDirectory(atPath: folder, withIntermediateDirectories: true) }
      try write(png, to: file)
      clean()
      return .recorded(file)
    }
    guard files.fileExists(atPath: file) else {
      if update { return try record() }
      return .failed("no picture snapshot yet (\(file)); run `sendingstate test --update-snapshots` to record it")
    }
    let what: String
    var sameSize = true
    do {
      let bytes = try readSnapshot(file)
      let stored = try PictureImage.size(of: bytes, what: "the picture snapshot \(file)")
      let now = try PictureImage(png: png, what: "the screen's picture")
      if stored != (now.width, now.height) {
        // Another size: nothing to compare pixel by pixel (and the stored one is not decoded).
        if update { return try record() }
        what = "the picture is \(now.width) × \(now.height) pixels, its snapshot \(stored.width) × \(stored.height)"
        sameSize = false
        if leaving {
          try write(png, to: actualFile)
          try? files.removeItem(atPath: diffFile)
        }
      } else {
        let comparison = PictureComparison(
          expected: try PictureImage(png: bytes, what: "the picture snapshot \(file)"), actual: now)
        if comparison.matches(tolerance: tolerance) {
          if leaving { clean() }
          return .matched
        }
        if update { return try record() }
        if leaving {
          try write(png, to: actualFile)
          try write(try comparison.picture.png(), to: diffFile)
        }
        what =
          "\(comparison.differing) of \(comparison.total) pixels differ (\(percent(comparison.differing, of: comparison.total))), "
          + "more than the tolerance (\(percent(tolerance)))"
      }
    } catch is ToolError where update {
      return try record()  // (a damaged or unreadable snapshot is recorded anew)
    }
    let differs = "the screen's picture differs from \(file): \(what)"
    guard leaving else { return .failed(differs) }
    return .failed(
      differs + "; the picture now is \(actualFile)" + (sameSize ? ", the differences (in red) \(diffFile)" : "")
        + "; accept it with --update-snapshots")
  }

  /// The snapshot's bytes: a regular file (a link is followed) of at most ``maxFileBytes``,
  /// checked on the open file and read no further than that.
  private static func readSnapshot(_ file: String) throws -> Data {
    guard let handle = FileHandle(forReadingAtPath: file) else {
      throw ToolError.usage("cannot read the picture snapshot \(file)")
    }
    defer { try? handle.close() }
    var info = stat()
    guard fstat(handle.fileDescriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw ToolError.usage("the picture snapshot \(file) is not a regular file")
    }
    let bytes = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
    guard bytes.count <= maxFileBytes else {
      throw ToolError.usage("the picture snapshot \(file) is larger than \(maxFileBytes) bytes: not a screen's picture")
    }
    return bytes
  }

  private static func write(_ data: Data, to path: String) throws {
    do {
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw ToolError.usage("could not write \(path): \(error.localizedDescription)")
    }
  }

  private static func percent(_ part: Int, of whole: Int) -> String {
    percent(whole == 0 ? 0 : Double(part) / Double(whole))
  }

  private static func percent(_ fraction: Double) -> String {
    let value = fraction * 100
    return (value >= 1 || value == 0 ? String(format: "%.0f", value) : String(format: "%.2g", value)) + " %"
  }
}
