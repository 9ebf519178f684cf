import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for tests: serves fixed bodies by path, answers 404
/// otherwise, handles at most `maxRequests` connections, then stops. Loopback only.
///
/// A path in `endless` streams a body that never ends, with no length announced, until the
/// client hangs up (for tests of size limits); a path in `dripping` sends one byte every 100 ms
/// until the client hangs up (for tests of time limits).
///
/// Every request it reads is kept in ``received`` — its method, path, headers and body as they
/// arrived on the socket — so a test checks what a client really sent.
///
/// ```swift
/// let server = try LoopbackHTTPServer(routes: ["/payload.json": json], maxRequests: 2)
/// server.url("/payload.json")   // "http://127.0.0.1:<port>/payload.json"
/// ```
public final class LoopbackHTTPServer: @unchecked Sendable {
  /// The port the server listens on.
  public let port: UInt16
  private let socketFD: Int32
  private let routes: [String: String]
  private let endless: Set<String>
  private let dripping: Set<String>
  private let redirects: [String: String]
  private let redirectStatus: Int
  private let lock = NSLock()
  private var requests: [Received] = []

  /// One request as it arrived.
  public struct Received: Sendable, Equatable {
    /// `GET`, `POST`…
    public var method: String
    /// The request target (`/login`).
    public var path: String
    /// The header lines in order, as sent.
    public var headerLines: [String]
    /// The body (Content-Length bytes of it).
    public var body: Data

    /// The value of the header named `name` (case aside), if sent.
    public func header(_ name: String) -> String? {
      for line in headerLines {
        guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else { continue }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
      return nil
    }
  }

  /// The requests read so far, in order.
  public var received: [Received] { lock.withLock { requests } }

  /// Starts serving `routes` (path → body), `endless` and `dripping` paths, and `redirects`
  /// (path → Location, answered with `redirectStatus`, 302 unless told) for at most
  /// `maxRequests` connections.
  public init(
    routes: [String: String], endless: Set<String> = [], dripping: Set<String> = [], redirects: [String: String] = [:],
    redirectStatus: Int = 302, maxRequests: Int = 8
  ) throws {
    self.routes = routes
    self.redirects = redirects
    self.redirectStatus = redirectStatus
    self.endless = endless
    self.dripping = dripping
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socketFD >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(socketFD, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
    self.socketFD = socketFD
    let thread = Thread { [self] in self.serve(maxRequests) }
    thread.start()
  }

  private func serve(_ maxRequests: Int) {
    for _ in 0..<maxRequests {
      let client = accept(socketFD, nil, nil)
      guard client >= 0 else { return }
      let path = readRequest(client)?.path ?? "/"
      if endless.contains(path) || dripping.contains(path) {
        streamForever(to: client, drip: dripping.contains(path))
        close(client)
        continue
      }
      if let location = redirects[path] {
        let response = "HTTP/1.1 \(redirectStatus) Redirect\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        _ = response.withCString { write(client, $0, strlen($0)) }
        close(client)
        continue
      }
      let body = routes[path]
      let payload = body ?? "not found"
      let response =
        "HTTP/1.1 \(body == nil ? "404 Not Found" : "200 OK")\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(payload.utf8.count)\r\nConnection: close\r\n\r\n\(payload)"
      _ = response.withCString { write(client, $0, strlen($0)) }
      close(client)
    }
    close(socketFD)
  }

  /// Reads one request — its head, then as many body bytes as its Content-Length says (at
  /// most 4 MiB) — and keeps it in ``received``; nil when the client sent no head.
  private func readRequest(_ client: Int32) -> Received? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    var headEnd: Int?
    var wanted = 0
    while bytes.count < 4 << 20 {
      if headEnd == nil, let end = find(separator, in: bytes) {
        headEnd = end
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        for line in head.components(separatedBy: "\r\n").dropFirst() {
          let parts = line.split(separator: ":", maxSplits: 1)
          if parts.count == 2, parts[0].lowercased() == "content-length" {
            wanted = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
          }
        }
      }
      if let headEnd, bytes.count >= headEnd + 4 + wanted { break }
      let count = read(client, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer.prefix(count)
    }
    guard let headEnd else { return nil }
    let lines = String(decoding: bytes[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
    let first = lines.first?.split(separator: " ") ?? []
    let request = Received(
      method: first.first.map(String.init) ?? "", path: first.dropFirst().first.map(String.init) ?? "/",
      headerLines: Array(lines.dropFirst()), body: Data(bytes[min(bytes.count, headEnd + 4)...].prefix(wanted)))
    lock.withLock { requests.append(request) }
    return request
  }

  private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
      return start
    }
    return nil
  }

  /// Writes a header without a length, then 64 KiB chunks (or, dripping, a byte every 100 ms)
  /// until the client hangs up (MSG_NOSIGNAL: a closed peer is an error code, not SIGPIPE).
  private func streamForever(to client: Int32, drip: Bool) {
    let header = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n"
    _ = header.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: drip ? 1 : 64 << 10)
    while chunk.withUnsafeBytes({ send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 {
      if drip { usleep(100_000) }
    }
  }

  /// The URL of `path` on this server.
  public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
}
