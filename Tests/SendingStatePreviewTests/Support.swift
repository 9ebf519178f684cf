import Foundation
import Testing

@testable import SendingStatePreview

#if canImport(Glibc)
  import Glibc
#endif

/// The repository root.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// A path under the repository root.
func repoPath(_ relative: String) -> String { repositoryRoot.appendingPathComponent(relative).path }

/// A copy of an example folder in a temporary folder (tests edit it); returns the screen's path.
func copyExample(_ name: String, screen: String) throws -> (folder: URL, screen: String) {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-preview-test-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  try FileManager.default.copyItem(atPath: repoPath("examples/\(name)"), toPath: folder.appendingPathComponent(name).path)
  return (folder, folder.appendingPathComponent(name).appendingPathComponent(screen).path)
}

/// Runs blocking socket work on a thread of its own: on Linux the cooperative pool, dispatch's
/// global queues and the main queue share one thread per core (two here), so blocking any of them
/// would starve other tests and the main actor, which the server itself needs.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

/// A blocking TCP client on loopback with a receive timeout: raw HTTP requests and a WebSocket
/// client's framing, so the server is tested through its socket by independent code. Tests call
/// it through ``offPool(_:)``.
final class LoopbackClient: @unchecked Sendable {
  let socket: Int32

  /// Connects to `port` on loopback; `receiveBuffer` makes the kernel's receive buffer small
  /// (a client that reads slowly fills it soon).
  init(port: Int, receiveBuffer: Int32? = nil) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if var size = receiveBuffer {
      setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    // Generous: a busy machine runs other tests on the main actor the server also needs. (Only
    // a failing test waits this long: a close or an answer ends the wait.)
    var timeout = timeval(tv_sec: 120, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard status == 0 else {
      close(socket)
      throw POSIXError(.ECONNREFUSED)
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

  /// Ends the connection from this side (both directions), as a client that goes away.
  func hangUp() {
    _ = shutdown(socket, Int32(SHUT_RDWR))
  }

  /// Reads until the server closes the connection (true) or the receive timeout passes (false).
  func waitForClose() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let got = recv(socket, &chunk, chunk.count, 0)
      if got == 0 { return true }
      if got < 0 && errno == EINTR { continue }
      if got < 0 { return errno == ECONNRESET }
    }
  }

  private var buffer: [UInt8] = []

  /// Reads at least `count` bytes (fewer only at end of stream or timeout).
  func read(_ count: Int) -> [UInt8] {
    while buffer.count < count {
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let got = recv(socket, &chunk, chunk.count, 0)
      guard got > 0 else { break }
      buffer += chunk[0..<got]
    }
    let taken = Array(buffer.prefix(count))
    buffer.removeFirst(taken.count)
    return taken
  }

  /// Reads the HTTP response head (through the blank line) and, with `body`, the rest until close.
  func readHead() -> String {
    var head: [UInt8] = []
    while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
      let byte = read(1)
      guard let first = byte.first else { break }
      head.append(first)
    }
    return String(decoding: head, as: UTF8.self)
  }

  /// One whole HTTP response on a kept-alive connection: its head, then as many body bytes as
  /// its Content-Length says (the head is returned).
  func readResponse() -> String {
    let head = readHead()
    let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
      .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    _ = read(length)
    return head
  }

  /// One HTTP/1.1 GET; the status code, head and body.
  static func get(port: Int, path: String, host: String? = nil, headers: [String] = []) throws -> (status: Int, head: String, body: String) {
    let client = try LoopbackClient(port: port)
    let lines = ["GET \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Connection: close"] + headers
    client.write(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    let head = client.readHead()
    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    var body: [UInt8] = []
    while true {
      let chunk = client.read(65_536)
      if chunk.isEmpty { break }
      body += chunk
    }
    return (status, head, String(decoding: body, as: UTF8.self))
  }

  // MARK: WebSocket (RFC 6455 framing, client side: masked frames out)

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

  /// Reads one whole text message (joining continuation frames); `nil` on close or timeout.
  func receiveText() -> String? {
    var message: [UInt8] = []
    while true {
      let header = read(2)
      guard header.count == 2 else { return nil }
      let opcode = header[0] & 0x0f
      var length = Int(header[1] & 0x7f)
      if length == 126 {
        let extended = read(2)
        length = Int(extended[0]) << 8 | Int(extended[1])
      } else if length == 127 {
        length = read(8).reduce(0) { $0 << 8 | Int($1) }
      }
      let payload = read(length)
      if opcode == 0x8 { return nil }
      if opcode == 0x9 || opcode == 0xA { continue }  // ping, pong
      message += payload
      if header[0] & 0x80 != 0 { return String(decoding: message, as: UTF8.self) }
    }
  }
}

/// A JSON object from text.
func object(_ text: String?) throws -> [String: Any] {
  guard let text, let value = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
    throw POSIXError(.EBADMSG)
  }
  return value
}

/// Where a server said it listens.
actor Listening {
  var url: String?
  func set(_ url: String) { self.url = url }
}

/// The counter's preview server on any free port, running in a task: the server, its task, the
/// URL it announced and its port.
func startServer(
  _ configure: @Sendable (inout PreviewServer.Configuration) -> Void = { _ in }
) async throws -> (server: PreviewServer, task: Task<Void, any Error>, url: String, port: Int, token: PreviewToken) {
  let token = PreviewToken(value: "0123456789abcdef0123456789abcdef")
  let server = try await MainActor.run {
    var configuration = PreviewServer.Configuration()
    configure(&configuration)
    return try PreviewServer(path: repoPath("examples/counter/counter.lua"), configuration: configuration, token: token)
  }
  let listening = Listening()
  let task = Task { try await server.run { await listening.set($0) } }
  var url: String?
  for _ in 0..<1500 where url == nil {
    try await Task.sleep(for: .milliseconds(20))
    url = await listening.url
  }
  let address = try #require(url)
  let port = try #require(Int(address.dropFirst("http://127.0.0.1:".count).prefix { $0.isNumber }))
  return (server, task, address, port, token)
}
