// Fuzz target: the preview's HTTP requests, in process, through the server's own router and
// guards (Hummingbird's router and responder, with a NIO EmbeddedChannel for the request's
// context — no socket): the method, the path (token, routes, `files/**` with `..`, hidden
// names, percent escapes, symlinks out), the `Host` header, `Origin` and other headers.
//
// The connection-level guard (UnansweredConnectionGuard, a NIO channel handler timing a
// connection's first answer) is a state machine over time, not a function of a request: the
// unit tests drive it through real sockets; it is not fuzzed here.
//
// Invariants:
// - no crash, no server error (5xx) for any request;
// - `allowed(token:authority:)` holds exactly when the token is the server's and the `Host`
//   names loopback (checked by an independent reading of the authority);
// - `upgradeAllowed` holds only for `GET /TOKEN/ws` (a query allowed) that is allowed and whose
//   `Origin`, when sent, is the page's own;
// - a 200 answers only an allowed request under `/TOKEN/`, and a file only when it is the
//   folder's image (never the script, a hidden file or a link out).
import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import SendingStatePreview

@_cdecl("LLVMFuzzerTestOneInput")
public func previewHTTPFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  var input = FuzzBytes(data, size)
  let request = HTTPRequestShape(&input)
  if fuzzVerbose { fuzzLog("\(request)") }
  request.check()
  return 0
}

/// The server under test, made once: the counter in a scratch folder with an image, a hidden
/// image, a link to a file outside and the script itself.
enum HTTPFixture {
  static let token = PreviewToken(value: "0123456789abcdef0123456789abcdef")

  static let folder: String = {
    let path = NSTemporaryDirectory() + "sendingstate-fuzz-http-\(getpid())"
    let files = FileManager.default
    do {
      try files.createDirectory(atPath: path + "/img", withIntermediateDirectories: true)
      try files.copyItem(atPath: FuzzScratch.repositoryRoot + "/examples/counter/counter.lua", toPath: path + "/screen.lua")
      try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: path + "/img/logo.png"))
      try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: path + "/.hidden.png"))
      try files.createSymbolicLink(atPath: path + "/link.png", withDestinationPath: "/etc/hostname")
    } catch {
      fuzzFail("cannot prepare \(path): \(error)")
    }
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "sendingstate-fuzz-http-\(getpid())") }
    return path
  }()

  static let server: PreviewServer = MainActor.assumeIsolated {
    do {
      return try PreviewServer(path: folder + "/screen.lua", token: token)
    } catch {
      fuzzFail("the preview server does not open: \(error)")
    }
  }

  static let responder = server.makeRouter().buildResponder()
  static let channel = EmbeddedChannel()
  static let logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
}

/// One request, as bytes decide it.
struct HTTPRequestShape: CustomStringConvertible {
  var method: HTTPRequest.Method
  var path: String
  var authority: String?
  var origin: String?
  var fields: [(String, String)]

  static let token = HTTPFixture.token.value
  static let prefixes = [
    "/\(token)/", "/\(token)", "/\(token.uppercased())/", "/\(token.dropLast())/", "/\(token)0/", "//\(token)/", "/%30123456789abcdef0123456789abcdef/",
    "/", "", "/x/\(token)/", "/\(token)/\(token)/",
  ]
  static let suffixes = [
    "", "preview.js", "preview.css", "ws", "ws?x=1", "ws/", "files/img/logo.png", "files/img/../img/logo.png", "files/screen.lua",
    "files/.hidden.png", "files/link.png", "files/%2e%2e/screen.lua", "files/img%2flogo.png", "files//img/logo.png", "files/",
    "files", "files/img/logo.PNG", "files/img/logo.png?download=1", "files/img/logo.png#x", "preview.js/..", "?", "%00",
  ]
  static let authorities: [String?] = [
    nil, "127.0.0.1", "127.0.0.1:8080", "localhost", "localhost:1", "[::1]", "[::1]:80", "[::1", "127.0.0.1.evil.example",
    "evil.example", "", ":80", "127.evil", "LOCALHOST", "localhost.", "[::ffff:127.0.0.1]",
  ]

  init(_ input: inout FuzzBytes) {
    let methods: [HTTPRequest.Method] = [.get, .get, .get, .head, .post, .put, .delete, .options, .connect]
    method = input.pick(methods)
    if input.below(8) == 0, let odd = HTTPRequest.Method(input.string(maxLength: 8)) { method = odd }
    path = input.pick(HTTPRequestShape.prefixes) + input.pick(HTTPRequestShape.suffixes)
    if input.below(4) == 0 { path += input.string(maxLength: 24) }
    authority = input.pick(HTTPRequestShape.authorities)
    if input.below(8) == 0 { authority = input.string(maxLength: 20) }
    switch input.below(4) {
    case 0: origin = nil
    case 1: origin = "http://" + (authority ?? "")
    case 2: origin = input.pick(["null", "http://evil.example", "https://127.0.0.1:8080", "http://127.0.0.1"])
    default: origin = input.string(maxLength: 16)
    }
    fields = (0..<input.below(4)).map { _ in
      (input.pick(["Upgrade", "Connection", "Sec-WebSocket-Key", "X-Forwarded-Host", "Cookie", input.string(maxLength: 8)]),
        input.pick(["websocket", "Upgrade", "dGhlIHNhbXBsZSBub25jZQ==", "127.0.0.1", input.string(maxLength: 16)]))
    }
  }

  var description: String {
    "\(method) \(path.debugDescription) authority \(authority.debugDescription) origin \(origin.debugDescription) \(fields)"
  }

  var head: HTTPRequest {
    var head = HTTPRequest(method: method, scheme: "http", authority: authority, path: path)
    if let origin, let name = HTTPField.Name("Origin"), HTTPField.isValidValue(origin) { head.headerFields[name] = origin }
    for (name, value) in fields {
      if let name = HTTPField.Name(name), HTTPField.isValidValue(value) { head.headerFields.append(HTTPField(name: name, value: value)) }
    }
    return head
  }

  /// Whether `authority` names loopback, read independently of the server's code.
  static func isLoopback(_ authority: String?) -> Bool {
    guard let authority else { return false }
    let host: Substring
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return authority.dropFirst() == "::1" }
      host = authority[authority.index(after: authority.startIndex)..<close]
    } else {
      host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }
    if host == "localhost" || host == "::1" { return true }
    // An IPv4 address in 127/8, as four decimal numbers of at most three digits, each ≤ 255.
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127"
      && parts.allSatisfy { $0.count >= 1 && $0.count <= 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) && Int($0)! <= 255 }
  }

  func check() {
    let server = HTTPFixture.server
    let token = HTTPRequestShape.token
    // The token guard, given the path's first segment.
    let segments = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
      .split(separator: "/", omittingEmptySubsequences: false)
    let given = segments.count > 1 ? String(segments[1]) : nil
    let allowed = server.allowed(token: given, authority: authority)
    fuzzCheck(allowed == (given == token && HTTPRequestShape.isLoopback(authority)), "allowed(token:authority:) is \(allowed) for \(self)")

    // The WebSocket upgrade.
    let request = head
    let upgrade = server.upgradeAllowed(request)
    if upgrade {
      let sentPath = request.path ?? ""  // (as sent: see the note at the 200 check)
      let bare = String(sentPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
      fuzzCheck(method == .get && bare == "/\(token)/ws" && allowed, "an upgrade was allowed for \(self)")
      let sentOrigin = request.headerFields[HTTPField.Name("Origin")!]
      fuzzCheck(sentOrigin == nil || sentOrigin == "http://" + (authority ?? ""), "an upgrade from origin \(String(describing: sentOrigin))")
    }

    // The router: routes, guards, files.
    let response = HTTPRequestShape.respond(Request(head: request, body: .init(buffer: ByteBuffer())))
    guard let response else { return }  // the router threw (an unknown route): Hummingbird answers that itself
    let status = response.status.code
    fuzzCheck(status < 500, "status \(status) for \(self)")
    if status == 200 {
      // What the server was sent: HTTPRequest makes the path a valid field value (control bytes
      // become spaces, and spaces at the ends go), so the shape's own text is not what arrived.
      let sent = request.path ?? ""
      let decoded = sent.removingPercentEncoding ?? sent
      let inPath = decoded.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0].split(separator: "/")
      fuzzCheck(HTTPRequestShape.isLoopback(authority) && inPath.first.map(String.init) == token, "200 for a request that is not allowed: \(self)")
      fuzzCheck(sent.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "200 for a path with bytes a URI cannot hold: \(self) (sent as \(sent.debugDescription))")
      let type = response.headers[.contentType] ?? ""
      let known = ["text/html; charset=utf-8", "text/javascript; charset=utf-8", "text/css; charset=utf-8", "image/png"]
      fuzzCheck(known.contains(type), "a 200 of type \(type) for \(self)")
      if type == "image/png" {
        fuzzCheck(inPath.suffix(2).map(String.init) == ["img", "logo.png"], "a file other than the image was served for \(self)")
      }
    }
  }

  /// The router's answer (the responder is async; it runs on the global executor while this
  /// thread waits: nothing it calls needs the main actor).
  static func respond(_ request: Request) -> Response? {
    final class Box: @unchecked Sendable {
      var response: Response?
    }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let context = BasicRequestContext(source: .init(channel: HTTPFixture.channel, logger: HTTPFixture.logger))
    Task.detached {
      box.response = try? await HTTPFixture.responder.respond(to: request, context: context)
      done.signal()
    }
    done.wait()
    return box.response
  }
}
