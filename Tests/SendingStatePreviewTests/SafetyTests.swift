import Foundation
import Testing

@testable import SendingStatePreview

@Suite("Safety pieces: token, file guard, rate limiter, folder watcher")
struct SafetyTests {
  @Test("tokens are 32 fresh hex digits and compare exactly")
  func token() {
    let token = PreviewToken()
    #expect(token.value.count == 32 && token.value.allSatisfy(\.isHexDigit))
    #expect(PreviewToken().value != token.value)
    #expect(token.matches(token.value))
    #expect(!token.matches(String(token.value.dropLast())))
    #expect(!token.matches(token.value + "0"))
    #expect(!token.matches(""))
  }

  @Test("only images inside the folders are served: no scripts, no .., no hidden files, no symlinks out")
  func fileGuard() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-guard-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("img"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data([1]).write(to: folder.appendingPathComponent("img/logo.png"))
    try Data([1]).write(to: folder.appendingPathComponent("screen.lua"))
    try Data([1]).write(to: folder.appendingPathComponent(".secret.png"))
    try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("out.png").path, withDestinationPath: "/etc/hostname")
    let files = FileGuard(folders: [folder.path])
    #expect(files.resolve(["img", "logo.png"])?.type == "image/png")
    #expect(files.resolve(["screen.lua"]) == nil)
    #expect(files.resolve(["..", "img", "logo.png"]) == nil)
    #expect(files.resolve(["img", "..", "img", "logo.png"]) == nil)
    #expect(files.resolve([".secret.png"]) == nil)
    #expect(files.resolve(["out.png"]) == nil)
    #expect(files.resolve(["img/logo.png"]) == nil)
    #expect(files.resolve([String]()) == nil)
  }

  @Test("a request path with raw control bytes, spaces or non-ASCII is refused by the connection check, whatever parsed it")
  func plainPaths() {
    #expect(PreviewServer.isPlainPath("/0123/files/img/logo.png"))
    #expect(PreviewServer.isPlainPath("/0123/files/img/logo%20x.png?x=1"))
    #expect(!PreviewServer.isPlainPath("/0123/files/img/logo.png\u{01}\0"))
    #expect(!PreviewServer.isPlainPath("/0123/files/img/logo .png"))
    #expect(!PreviewServer.isPlainPath("/0123/files/img/lögo.png"))
    #expect(!PreviewServer.isPlainPath("/0123/\u{7F}"))
  }

  @Test("loopback is localhost, ::1 or a 127/8 address; a name that starts with 127. is not (DNS rebinding)")
  func loopbackNames() {
    for name in ["localhost", "::1", "127.0.0.1", "127.1.2.3", "127.255.255.255"] {
      #expect(PreviewServer.isLoopbackName(name), "\(name)")
    }
    // (The preview_http fuzz target's finding: "127.evil" was taken for loopback.)
    for name in ["127.evil", "127.0.0.1.evil.example", "127.0.0.1evil", "127.0.0.256", "128.0.0.1", "127", "", "localhost.evil"] {
      #expect(!PreviewServer.isLoopbackName(name), "\(name)")
    }
  }

  @Test("the rate limiter allows a burst, then refills over time")
  func rateLimiter() {
    var limiter = RateLimiter(perSecond: 10, burst: 3)
    let start = ContinuousClock.now
    let answers = [
      limiter.allow(now: start), limiter.allow(now: start), limiter.allow(now: start), limiter.allow(now: start),
      limiter.allow(now: start + .milliseconds(150)), limiter.allow(now: start + .milliseconds(160)),
    ]
    #expect(answers == [true, true, true, false, true, false])
  }

  @Test("the watcher notices a saved, added or removed .lua file, and nothing else")
  func watcher() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("units"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let module = folder.appendingPathComponent("units/a.lua")
    try "return 1".write(to: module, atomically: true, encoding: .utf8)
    var watcher = FolderWatcher(folders: [folder.path])
    var seen = [watcher.poll()]
    try "notes".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    seen.append(watcher.poll())
    try "return 22".write(to: module, atomically: true, encoding: .utf8)
    seen += [watcher.poll(), watcher.poll()]
    try FileManager.default.removeItem(at: module)
    seen.append(watcher.poll())
    #expect(seen == [false, false, true, false, true])
  }
}
