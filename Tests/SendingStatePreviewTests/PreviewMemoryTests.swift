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
    let good = #""token":"0123456789abcdef0123456789abcdef""#
    for text in [
      "", "{", "[]", #"{"port":50123}"#, #"{"port":0,\#(good)}"#, #"{"port":70000,\#(good)}"#, #"{"port":"1",\#(good)}"#,
      #"{"port":1,"token":"nope"}"#, #"{"port":1,\#(good),"extra":1}"#, #"{"port":1,\#(good)}"# + String(repeating: " ", count: 2000),
    ] {
      try text.write(toFile: file, atomically: true, encoding: .utf8)
      #expect(PreviewMemory.load(from: file) == nil, "\(text.prefix(60))")
    }
    #expect(PreviewMemory.load(from: folder + "/missing.json") == nil)
  }

  @Test("a port something listens on is not free; one nothing listens on is")
  func freePorts() throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(listener >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    #expect(listen(listener, 1) == 0)
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
