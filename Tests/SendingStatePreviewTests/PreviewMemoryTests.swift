import Foundation
import Testing

@testable import SendingStatePreview

#if canImport(Glibc)
  import Glibc
#endif

@Suite("A screen's preview keeps its URL across restarts: port and token remembered")
struct PreviewMemoryTests {
  func scratch() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-memory-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test("a token is 32 lowercase hex digits, as a preview makes them")
  func tokens() {
    #expect(PreviewToken(parsing: "0123456789abcdef0123456789abcdef")?.value == "0123456789abcdef0123456789abcdef")
    #expect(PreviewToken(parsing: PreviewToken().value) != nil)
    for bad in ["", "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0",
      "0123456789abcdef0123456789abcdeg", "../../etc/passwd/0123456789abcdef", "0123456789abcdef0123456789abcd\u{E9}"]
    {
      #expect(PreviewToken(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test("one file per screen in the user's cache folder: XDG_CACHE_HOME, else ~/.cache, else none")
  func files() {
    let xdg = PreviewMemory.file(for: "/p/counter.lua", environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"])
    #expect(xdg?.hasPrefix("/c/sendingstate/preview/") == true && xdg?.hasSuffix(".json") == true, "\(xdg ?? "")")
    let home = PreviewMemory.file(for: "/p/counter.lua", environment: ["HOME": "/h"])
    #expect(home?.hasPrefix("/h/.cache/sendingstate/preview/") == true)
    #expect(PreviewMemory.file(for: "/p/counter.lua", environment: [:]) == nil)
    #expect(PreviewMemory.file(for: "/p/counter.lua", environment: ["XDG_CACHE_HOME": "relative", "HOME": "also"]) == nil)
    // The same screen, however its path is written, has one file; another screen another.
    #expect(PreviewMemory.file(for: "/p/./x/../counter.lua", environment: ["HOME": "/h"]) == home)
    #expect(PreviewMemory.file(for: "/p/other.lua", environment: ["HOME": "/h"]) != home)
  }

  /// Writes `text` to `file` with `mode`.
  func write(_ text: String, to file: String, mode: Int = 0o600) throws {
    unlink(file)
    #expect(FileManager.default.createFile(atPath: file, contents: Data(text.utf8)))
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
  }

  @Test("what is saved loads back, readable by the user only; anything else in the file is ignored")
  func roundTrip() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/deep/er/x.json"
    let token = PreviewToken()
    PreviewMemory.save(port: 50_123, token: token, to: file)
    let loaded = PreviewMemory.load(from: file)
    #expect(loaded?.port == 50_123 && loaded?.token.value == token.value)
    let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let folderMode = try FileManager.default.attributesOfItem(atPath: folder + "/deep/er")[.posixPermissions] as? Int
    #expect(folderMode == 0o700)
    // The same text, written by hand with the same mode, loads (so the refusals below are about
    // the content, not the way it was written).
    let good = #""token":"0123456789abcdef0123456789abcdef""#
    try write(#"{"port":1,\#(good)}"#, to: file)
    #expect(PreviewMemory.load(from: file)?.port == 1)
    for text in [
      "", "{", "[]", #"{"port":50123}"#, #"{"port":0,\#(good)}"#, #"{"port":70000,\#(good)}"#, #"{"port":"1",\#(good)}"#,
      #"{"port":1,"token":"nope"}"#, #"{"port":1,\#(good),"extra":1}"#, #"{"port":1,\#(good)}"# + String(repeating: " ", count: 2000),
    ] {
      try write(text, to: file)
      #expect(PreviewMemory.load(from: file) == nil, "\(text.prefix(60))")
    }
    #expect(PreviewMemory.load(from: folder + "/missing.json") == nil)
  }

  @Test("a memory others could have written or read is ignored: a file others may read, a link, a FIFO, a shared folder")
  func untrusted() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let good = #"{"port":1,"token":"0123456789abcdef0123456789abcdef"}"#
    let own = folder + "/own"
    try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    try write(good, to: own + "/x.json")
    #expect(PreviewMemory.load(from: own + "/x.json") != nil)
    try write(good, to: own + "/readable.json", mode: 0o644)
    #expect(PreviewMemory.load(from: own + "/readable.json") == nil)
    try FileManager.default.createSymbolicLink(atPath: own + "/link.json", withDestinationPath: own + "/x.json")
    #expect(PreviewMemory.load(from: own + "/link.json") == nil)
    #expect(mkfifo(own + "/fifo.json", 0o600) == 0)
    #expect(PreviewMemory.load(from: own + "/fifo.json") == nil)  // (and does not wait for a writer)
    // A folder others may write to: nothing is read from it, nothing written to it.
    let shared = folder + "/shared"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: shared)
    try write(good, to: shared + "/x.json")
    #expect(PreviewMemory.load(from: shared + "/x.json") == nil)
    PreviewMemory.save(port: 2, token: PreviewToken(), to: shared + "/y.json")
    #expect(!FileManager.default.fileExists(atPath: shared + "/y.json"))
    // A link where the file goes is replaced, not followed.
    let target = own + "/target.json"
    try write("keep", to: target)
    try FileManager.default.createSymbolicLink(atPath: own + "/z.json", withDestinationPath: target)
    PreviewMemory.save(port: 3, token: PreviewToken(), to: own + "/z.json")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    #expect(PreviewMemory.load(from: own + "/z.json")?.port == 3)
  }

  @Test("a port something listens on is not free; one nothing listens on is")
  func freePorts() throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(listener >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    #expect(bound == 0 && listen(listener, 1) == 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    let port = Int(UInt16(bigEndian: address.sin_port))
    #expect(!PreviewMemory.isFree(port: port, host: "127.0.0.1"))
    close(listener)
    #expect(PreviewMemory.isFree(port: port, host: "127.0.0.1"))
    #expect(!PreviewMemory.isFree(port: port, host: "localhost"))  // (only IPv4 addresses are checked)
    #expect(!PreviewMemory.isFree(port: 0, host: "127.0.0.1"))
  }
}
