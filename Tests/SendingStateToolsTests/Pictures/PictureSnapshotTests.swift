import Foundation
import SendingStateHeadless
import SendingStateTestSupport
import Testing

@testable import SendingStateTools

@Suite("Picture snapshots: cairo decodes, pixels compare with a tolerance, mismatches leave pictures")
@MainActor
struct PictureSnapshotTests {
  /// A 2 × 1 RGB PNG (red, blue) written by Python's zlib and struct, not by cairo. (Made anew
  /// at each use: a `static let` Data is a lazily made global that LeakSanitizer counts as leaked.)
  static var redBlue: Data {
    Data([
      0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x02,
      0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x7B, 0x40, 0xE8, 0xDD, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41,
      0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0x00, 0x04, 0xFF, 0x01, 0x07, 0x00, 0x01, 0xFF, 0xE2, 0x23, 0x9E, 0x59, 0x00, 0x00,
      0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ])
  }

  @Test("cairo reads a PNG another encoder wrote, and what cairo writes reads back the same (and in Python's decoder)")
  func decode() async throws {
    let image = try PictureImage(png: Self.redBlue, what: "red-blue")
    #expect(image.width == 2 && image.height == 1)
    #expect(image.pixels == [0xFFFF_0000, 0xFF00_00FF])
    var changed = image
    changed.pixels[1] = 0x8000_8000  // half-transparent green, premultiplied
    let written = try changed.png()
    #expect(try PictureImage(png: written, what: "written") == changed)
    let python = try await decodeWithPython(Self.redBlue, pixels: [(0, 0), (1, 0)])
    #expect(python.pixels["0,0"] == [255, 0, 0] && python.pixels["1,0"] == [0, 0, 255])
  }

  @Test("attack: not a PNG, a cut-off PNG and a header claiming 4 billion pixels are refused with what and where")
  func refused() throws {
    #expect(throws: ToolError.self) { try PictureImage(png: Data("hello".utf8), what: "x.png") }
    let cut = Self.redBlue.prefix(40)
    let damaged = #expect(throws: ToolError.self) { try PictureImage(png: cut, what: "cut.png") }
    #expect(damaged?.description.contains("cut.png: cairo could not read it as a PNG") == true, "\(String(describing: damaged))")
    var huge = Self.redBlue
    huge.replaceSubrange(16..<24, with: [0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])  // 65536 × 65536
    let bomb = #expect(throws: ToolError.self) { try PictureImage(png: huge, what: "bomb.png") }
    #expect(bomb?.description.contains("bomb.png says it is 65536 × 65536 pixels") == true, "\(String(describing: bomb))")
  }

  @Test("attack: a 16-bit PNG is refused before cairo decodes it; a slice of bytes decodes as the whole would")
  func headerAndSlices() throws {
    var deep = Self.redBlue
    deep[24] = 16
    let refused = #expect(throws: ToolError.self) { try PictureImage(png: deep, what: "deep.png") }
    #expect(refused?.description.contains("deep.png has 16 bits a channel") == true, "\(String(describing: refused))")
    let padded = Data([1, 2, 3]) + Self.redBlue
    #expect(try PictureImage(png: padded.dropFirst(3), what: "slice").pixels == [0xFFFF_0000, 0xFF00_00FF])
  }

  @Test("attack: a snapshot that links to a huge file, or is not a regular file, is refused without reading it; update records over a damaged one")
  func snapshotFileAttacks() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-picture-attack-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // A sparse file of 1 GiB starting like a PNG, and a snapshot that is a link to it.
    let huge = folder.appendingPathComponent("huge.bin")
    try Self.redBlue.write(to: huge)
    let handle = try FileHandle(forWritingTo: huge)
    try handle.truncate(atOffset: 1 << 30)
    try handle.close()
    let link = folder.appendingPathComponent("link.png").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: huge.path)
    let tree = counter(count: "1")
    let big = #expect(throws: ToolError.self) { try PictureSnapshot.check(tree, file: link, update: false, tolerance: 0) }
    #expect(big?.description.contains("larger than \(PictureSnapshot.maxFileBytes) bytes") == true, "\(String(describing: big))")
    let folderSnapshot = folder.appendingPathComponent("dir.png")
    try FileManager.default.createDirectory(at: folderSnapshot, withIntermediateDirectories: true)
    #expect(throws: ToolError.self) { try PictureSnapshot.check(tree, file: folderSnapshot.path, update: false, tolerance: 0) }
    // A damaged snapshot fails to read; with update it is recorded anew.
    let damaged = folder.appendingPathComponent("damaged.png").path
    try Data("not a picture".utf8).write(to: URL(fileURLWithPath: damaged))
    #expect(throws: ToolError.self) { try PictureSnapshot.check(tree, file: damaged, update: false, tolerance: 0) }
    #expect(try PictureSnapshot.check(tree, file: damaged, update: true, tolerance: 0) == .recorded(damaged))
    #expect(try PictureSnapshot.check(tree, file: damaged, update: false, tolerance: 0) == .matched)
  }

  @Test("a pixel differs past 16 levels in a channel; the tolerance is a fraction of the pixels; sizes must agree")
  func comparison() {
    let white = PictureImage(width: 10, height: 10)
    var near = white
    near.pixels[0] = 0xFFF0_F0F0  // 15 levels off: the same
    #expect(PictureComparison(expected: white, actual: near).differing == 0)
    var far = white
    far.pixels[3] = 0xFFEE_FFFF  // 17 levels off in red
    let one = PictureComparison(expected: white, actual: far)
    #expect(one.differing == 1 && one.total == 100)
    #expect(one.matches(tolerance: 0.01) && !one.matches(tolerance: 0.009))
    #expect(one.picture.pixels[3] == 0xFFFF_0000 && one.picture.pixels[0] != 0xFFFF_0000)
    let taller = PictureComparison(expected: white, actual: PictureImage(width: 10, height: 11))
    #expect(!taller.sameSize && !taller.matches(tolerance: 1))
  }

  @Test("missing fails and says how to record; update records; a change fails naming the picture now and the differences")
  func snapshotFiles() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-picture-snap-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("__snapshots__/s/start.png").path
    let before = counter(count: "1")
    guard case .failed(let missing) = try PictureSnapshot.check(before, file: file, update: false, tolerance: 0.001) else {
      Issue.record("a missing snapshot must fail")
      return
    }
    #expect(missing.contains("no picture snapshot yet") && missing.contains("--update-snapshots"))
    #expect(try PictureSnapshot.check(before, file: file, update: true, tolerance: 0.001) == .recorded(file))
    #expect(try PictureSnapshot.check(before, file: file, update: false, tolerance: 0.001) == .matched)
    // Recording again what matches within the tolerance leaves the file as it is.
    let recorded = try Data(contentsOf: URL(fileURLWithPath: file))
    #expect(try PictureSnapshot.check(counter(count: "2"), file: file, update: true, tolerance: 0.5) == .matched)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == recorded)

    let after = counter(count: "2")
    guard case .failed(let changed) = try PictureSnapshot.check(after, file: file, update: false, tolerance: 0.001) else {
      Issue.record("a changed picture must fail")
      return
    }
    let actual = folder.appendingPathComponent("__snapshots__/s/start.actual.png").path
    let diff = folder.appendingPathComponent("__snapshots__/s/start.diff.png").path
    #expect(changed.contains("pixels differ") && changed.contains(actual) && changed.contains(diff), "\(changed)")
    // Negated, a difference leaves no pictures behind.
    try? FileManager.default.removeItem(atPath: actual)
    try? FileManager.default.removeItem(atPath: diff)
    guard case .failed = try PictureSnapshot.check(after, file: file, update: false, tolerance: 0.001, leaving: false) else {
      Issue.record("a changed picture must fail")
      return
    }
    #expect(!FileManager.default.fileExists(atPath: actual) && !FileManager.default.fileExists(atPath: diff))
    _ = try PictureSnapshot.check(after, file: file, update: false, tolerance: 0.001)
    // The picture now is what PNGRenderer draws; the differences are red where the count is.
    #expect(try Data(contentsOf: URL(fileURLWithPath: actual)) == (try PNGRenderer.png(after)))
    let diffImage = try PictureImage(png: try Data(contentsOf: URL(fileURLWithPath: diff)), what: "diff")
    let red = diffImage.pixels.filter { $0 == 0xFFFF_0000 }.count
    #expect(red > 0 && red < diffImage.pixels.count / 10)
    let python = try await decodeWithPython(try Data(contentsOf: URL(fileURLWithPath: diff)))
    #expect(python.width == diffImage.width && python.height == diffImage.height)
    // A tolerance larger than the change passes, and removes the pictures of the failure.
    #expect(try PictureSnapshot.check(after, file: file, update: false, tolerance: 0.5) == .matched)
    #expect(!FileManager.default.fileExists(atPath: actual) && !FileManager.default.fileExists(atPath: diff))
  }

  func counter(count: String) -> RenderNode {
    let root = StackView(id: "root", axis: .vertical, spacing: 8)
    root.addSubview(Label(id: "title", text: "Product"))
    root.addSubview(Label(id: "count", text: count))
    return root.renderTree()
  }
}
