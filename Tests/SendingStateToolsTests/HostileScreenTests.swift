import Foundation
import SendingStateTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Hostile screens against the CLI's memory: whatever a screen shows or how long it keeps
/// making steps, the process's peak resident memory stays within Lua's cap (64 MiB) plus the
/// host's documented fixed allowance (192 MiB).
///
/// Peak memory is the child's `ru_maxrss`, as `/usr/bin/time` reports it (Debian's `time`).
/// A ceiling, not a timing: it holds however loaded the machine is.
extension CLIEndToEndTests {
  @Suite("Hostile screens: peak memory within the Lua cap plus the fixed allowance")
  struct HostileScreenTests {
    /// Lua's memory cap plus the host's fixed allowance, in KiB.
    static let ceiling = (64 + 192) * 1024

    /// Whether the CLI was built with AddressSanitizer (`scripts/sanitize.sh` says so): its
    /// quarantine (256 MiB of freed memory held back) and shadow memory make peak RSS say
    /// nothing about the host's budgets, so the ceiling is checked by the plain suite only.
    static let sanitized = ProcessInfo.processInfo.environment["SENDINGSTATE_SANITIZED"] == "1"

    /// Expects `peak` (KiB) within the ceiling, unless the build is sanitized.
    static func expectWithinCeiling(_ peak: Int, sourceLocation: SourceLocation = #_sourceLocation) {
      guard !sanitized else { return }
      #expect(peak <= ceiling, "peak \(peak) KiB", sourceLocation: sourceLocation)
    }

    static let fixtures = "Tests/SendingStateToolsTests/Fixtures/hostile/"

    /// Runs the CLI under `/usr/bin/time`; returns what it printed and its peak memory in KiB.
    static func measured(_ arguments: [String], input: String = "") async throws -> (result: RunResult, peak: Int) {
      let time = "/usr/bin/time"
      try #require(FileManager.default.isExecutableFile(atPath: time), "install Debian's `time` package (/usr/bin/time)")
      let report = FileManager.default.temporaryDirectory.appendingPathComponent("ss-peak-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: report) }
      let child = try ChildProcess(
        executable: time, arguments: ["-f", "%M", "-o", report, binaryPath] + arguments, directory: repositoryRoot.path)
      child.send(input)
      let status = await child.wait()
      let text = try String(contentsOfFile: report, encoding: .utf8)
      let peak = try #require(text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }, "\(text)")
      return (RunResult(status: status, stdout: child.output, stderr: child.errors), peak)
    }

    @Test("a 4 MiB string in 60 labels: the text report cuts each value, showing its length")
    func bigLabelsText() async throws {
      let (result, peak) = try await HostileScreenTests.measured(["run", HostileScreenTests.fixtures + "big_labels.lua"])
      #expect(result.status == 0, "\(result.stderr)")
      HostileScreenTests.expectWithinCeiling(peak)
      #expect(result.stdout.contains("… (4194305 bytes; cut at 16384)\""))
      #expect(result.stdout.utf8.count < 2 << 20)
    }

    @Test("a 4 MiB string in 60 labels, three steps, --format json: valid JSON, values cut, memory bounded")
    func bigLabelsJSON() async throws {
      let (result, peak) = try await HostileScreenTests.measured([
        "run", HostileScreenTests.fixtures + "big_labels.lua", "--format", "json", "--send", "tap grow", "--send", "tap grow",
        "--send", "tap grow",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      HostileScreenTests.expectWithinCeiling(peak)
      let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      #expect((report["steps"] as? [Any])?.count == 3)
      let tree = try #require(report["tree"] as? [String: Any])
      let first = try #require((tree["children"] as? [[String: Any]])?.first)
      #expect((first["text"] as? String)?.hasSuffix("… (4194305 bytes; cut at 16384)") == true)
    }

    @Test("a timer that re-arms itself, run --settle: each step is written as it happens, none kept")
    func rearmingTimerRun() async throws {
      let (result, peak) = try await HostileScreenTests.measured([
        "run", HostileScreenTests.fixtures + "rearming_timer.lua", "--send", "tap start", "--settle", "5",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      HostileScreenTests.expectWithinCeiling(peak)
      #expect(result.stdout.components(separatedBy: "> effect: tick").count > 2)
      #expect(result.stderr.contains("still running after waiting 5.0 s"))
    }

    @Test("a timer that re-arms itself, in the REPL: its steps are printed as they happen, none kept")
    func rearmingTimerRepl() async throws {
      let (result, peak) = try await HostileScreenTests.measured(
        ["repl", HostileScreenTests.fixtures + "rearming_timer.lua"], input: "tap start\nquit\n")
      #expect(result.status == 0, "\(result.stderr)")
      HostileScreenTests.expectWithinCeiling(peak)
      #expect(result.stdout.contains("(1 effect(s) still running)"))
    }
  
    @Test("preview: 8 pages that never read and one that taps 30 times on the 4 MiB labels; memory bounded, pages kept")
    func previewSlowPages() async throws {
      let child = try startCLI(["preview", HostileScreenTests.fixtures + "big_labels.lua"])
      defer { child.terminate() }
      child.closeInput()
      #expect(await child.waitFor(timeout: 60) { $0.contains("preview: http://") })
      let url = try #require(child.output.split(separator: "\n").first { $0.hasPrefix("preview: http://") })
      let address = url.dropFirst("preview: http://127.0.0.1:".count)
      let port = try #require(Int(address.prefix { $0.isNumber }))
      let token = String(address.drop { $0 != "/" }.dropFirst().prefix { $0 != "/" })
      let pages = try await offThread {
        try (0..<8).map { _ in try RawWebSocket(port: port, path: "/\(token)/ws", receiveBuffer: 4096) }
      }
      let driver = try await offThread { try RawWebSocket(port: port, path: "/\(token)/ws", receiveBuffer: nil) }
      for seq in 1...30 { driver.sendText(#"{"seq":\#(seq),"verb":"tap","id":"grow"}"#) }
      // The driver reads its answers: the last one answers the last tap.
      let answered = try await offThread { driver.readUntil(#""seq":30"#, limit: 64 << 20) }
      #expect(answered, "the preview did not answer the 30th tap")
      #expect(child.isRunning, "\(child.errors)")
      let status = try String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8)
      let peak = try #require(
        status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") })
      HostileScreenTests.expectWithinCeiling(peak)
      withExtendedLifetime(pages) {}
      child.terminate()
      await child.wait()
    }
  }
}

/// Runs blocking socket work on a thread of its own (not the shared pool's two).
func offThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

/// A minimal WebSocket client over a blocking loopback socket: the upgrade, masked text frames
/// out, and reading raw bytes until a marker (enough to drive the preview and to be a page that
/// never reads: a small receive buffer it never drains).
final class RawWebSocket: @unchecked Sendable {
  let socket: Int32

  init(port: Int, path: String, receiveBuffer: Int32?) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if var size = receiveBuffer { setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
      close(socket)
      throw POSIXError(.ECONNREFUSED)
    }
    let request = [
      "GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Upgrade: websocket", "Connection: Upgrade",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
    ].joined(separator: "\r\n") + "\r\n\r\n"
    write(Array(request.utf8))
    // The 101 head, byte by byte (nothing after it is read here).
    var head: [UInt8] = []
    var byte: UInt8 = 0
    while !head.suffix(4).elementsEqual([13, 10, 13, 10]), recv(socket, &byte, 1, 0) == 1 { head.append(byte) }
    guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
      close(socket)
      throw POSIXError(.EPROTO)
    }
  }

  deinit { close(socket) }

  func write(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard sent > 0 else { return }
      offset += sent
    }
  }

  /// Sends a masked text frame.
  func sendText(_ text: String) {
    let payload = Array(text.utf8)
    var frame: [UInt8] = [0x81]
    if payload.count < 126 {
      frame.append(0x80 | UInt8(payload.count))
    } else {
      frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
    }
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    write(frame)
  }

  /// Reads (and drops) bytes until `marker` shows up, at most `limit` bytes; whether it did.
  func readUntil(_ marker: String, limit: Int) -> Bool {
    let needle = Array(marker.utf8)
    var window: [UInt8] = []
    var total = 0
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while total < limit {
      let got = recv(socket, &chunk, chunk.count, 0)
      guard got > 0 else { return false }
      total += got
      window += chunk[0..<got]
      if window.count >= needle.count, String(decoding: window, as: UTF8.self).contains(marker) { return true }
      window = Array(window.suffix(needle.count))
    }
    return false
  }
}
