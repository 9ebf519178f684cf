// Fuzz target: what a server answers to `store:fetch` — raw HTTP responses (status lines,
// headers, lengths, chunked bodies, redirects to anywhere) from a loopback server through the
// host's libcurl fetch, and bodies (JSON nested to any depth, huge numbers, not UTF-8) turned
// into the screen's `ok`/`fail` action.
//
// The input: a byte of decisions, two bytes choosing the grant and the size limit, then the
// response. In it, `@@` stands for this server's own address (`127.0.0.1:PORT`), so redirects
// can lead back to it; any other host must never be connected to.
//
// Invariants:
// - the fetch ends (no hang past its timeout), with a body no longer than its limit, or an
//   error in words; the server sees at most one request plus five redirects;
// - with a grant that does not name this server, nothing is connected to at all;
// - the answer, whatever it holds, reaches the screen as its ok or its fail action (the state
//   records which), with no error left over.
import Foundation
import SendingStateLua

#if canImport(Glibc)
  import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fetchAnswersFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  MainActor.assumeIsolated { runAnswer(bytes) }
  return 0
}

/// A loopback server that answers every request with the current response bytes.
final class AnswerServer: @unchecked Sendable {
  let port: UInt16
  private let socketFD: Int32
  private let lock = NSLock()
  private var response: [UInt8] = []
  private var requests = 0

  static let shared: AnswerServer = {
    do { return try AnswerServer() } catch { fuzzFail("cannot start the loopback server: \(error)") }
  }()

  private init() throws {
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socketFD >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(socketFD, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
    self.socketFD = socketFD
    Thread { [self] in self.serve() }.start()
  }

  /// Answers `bytes` from now on; returns how many requests came since the last call.
  func answer(_ bytes: [UInt8]) -> Int {
    lock.lock()
    defer { lock.unlock() }
    let seen = requests
    response = bytes
    requests = 0
    return seen
  }

  var requestCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return requests
  }

  private func serve() {
    while true {
      let client = accept(socketFD, nil, nil)
      guard client >= 0 else { continue }
      var timeout = timeval(tv_sec: 1, tv_usec: 0)
      setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      var buffer = [UInt8](repeating: 0, count: 4096)
      _ = read(client, &buffer, buffer.count)
      lock.lock()
      requests += 1
      let bytes = response
      lock.unlock()
      _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      close(client)
    }
  }
}

/// The screen the answers are delivered to, opened once.
@MainActor
enum AnswerScreen {
  static let url = "https://api.example.com/answer"
  static let screen: LuaScreen = {
    let path = NSTemporaryDirectory() + "sendingstate-answer-fuzz-\(getpid()).lua"
    let source = """
      return {
        state = { result = "" },
        layout = function(ui) return ui.label { id = "l" } end,
        configure = function() end,
        handle = function(action, store)
          if action.type == "go" then
            store:update(function(s) s.result = "" end)
            store:fetch(action.url, { ok = "ok", fail = "fail" })
          elseif action.type == "ok" or action.type == "fail" then
            store:update(function(s) s.result = action.type end)
          end
        end,
      }
      """
    do {
      try source.write(toFile: path, atomically: false, encoding: .utf8)
      atexit { unlink(NSTemporaryDirectory() + "sendingstate-answer-fuzz-\(getpid()).lua") }
      return try LuaScreen(path: path)
    } catch {
      fuzzFail("cannot open the answer screen: \(error)")
    }
  }()
}

/// Runs the main actor's work until `done` or `seconds` pass; returns whether it was done.
@MainActor
func spin(seconds: Double, until done: () -> Bool) -> Bool {
  let end = Date().addingTimeInterval(seconds)
  while !done() {
    if Date() > end { return false }
    RunLoop.main.run(until: Date().addingTimeInterval(0.001))
  }
  return true
}

/// A result a background task sets and the harness reads.
final class Box<T>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: T?
  var value: T? {
    get { lock.lock(); defer { lock.unlock() }; return stored }
    set { lock.lock(); stored = newValue; lock.unlock() }
  }
}

@MainActor
func runAnswer(_ bytes: [UInt8]) {
  var input = FuzzBytes(bytes)
  let decisions = input.byte()
  let grantChoice = input.byte()
  let sizeChoice = input.byte()
  var response = Array(bytes.dropFirst(3))
  let server = AnswerServer.shared
  let own = "127.0.0.1:\(server.port)"
  response = replace(response, "@@", with: Array(own.utf8))
  if decisions & 1 == 1 {
    response = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n".utf8) + response
  }
  let maxBytes = [16, 1_024, 65_536, 8 << 20][Int(sizeChoice % 4)]
  let grant: [String] = [[own], ["127.0.0.1"], ["*"], ["127.0.0.1:1"], ["example.com"], ["*.example.com", own]][Int(grantChoice % 6)]
  let grantsOwn = grant.contains(own) || grant.contains("127.0.0.1") || grant.contains("*")
  if fuzzVerbose { fuzzLog("grant \(grant), max \(maxBytes), response: \(String(decoding: response.prefix(400), as: UTF8.self))") }

  // Through libcurl, from the loopback server.
  _ = server.answer(response)
  let outcome = Box<Result<(data: Data, status: Int), any Error>>()
  let url = URL(string: "http://\(own)/start")!
  Task.detached {
    do {
      outcome.value = .success(try await NetworkFetcher().fetch(url, within: grant, maxBytes: maxBytes, timeout: .seconds(2)))
    } catch {
      outcome.value = .failure(error)
    }
  }
  guard spin(seconds: 10, until: { outcome.value != nil }) else { fuzzFail("a fetch did not end within 10 s (its timeout is 2 s)") }
  let requests = server.requestCount
  fuzzCheck(requests <= 6, "the server saw \(requests) requests for one fetch (at most 1 + 5 redirects)")
  if !grantsOwn { fuzzCheck(requests == 0, "a fetch granted \(grant) connected to \(own)") }
  var body = Data()
  var status = 200
  switch outcome.value! {
  case .success(let answer):
    fuzzCheck(answer.data.count <= maxBytes, "a body of \(answer.data.count) bytes passed the limit of \(maxBytes)")
    fuzzCheck(grantsOwn, "a fetch granted \(grant) got an answer")
    body = answer.data
    status = answer.status
  case .failure(let error):
    fuzzCheck(!"\(error)".isEmpty, "a fetch failed without words")
    // The body the fuzzer chose, straight to the screen.
    body = Data(response)
    status = Int(Int16(bitPattern: UInt16(grantChoice) << 8 | UInt16(sizeChoice)))
  }

  // Whatever it holds, the answer reaches the screen as its ok or its fail action.
  let screen = AnswerScreen.screen
  screen.runtime.fetcher = FakeFetcher([AnswerScreen.url: .init(status: status, body: String(decoding: body, as: UTF8.self))])
  let errorsBefore = screen.asyncErrorCount
  do {
    try screen.perform(action: ["type": "go", "url": .string(AnswerScreen.url)])
  } catch {
    fuzzFail("starting the fetch failed: \(error)")
  }
  guard spin(seconds: 10, until: { screen.pendingEffects == 0 }) else { fuzzFail("a fake answer did not arrive within 10 s") }
  fuzzCheck(screen.asyncErrorCount == errorsBefore, "the answer's action failed: \(screen.asyncErrors.last.map { "\($0)" } ?? "")")
  let result = screen.state["result"].stringValue ?? ""
  fuzzCheck(result == "ok" || result == "fail", "the answer (HTTP \(status), \(body.count) bytes) reached neither ok nor fail: '\(result)'")
}

func replace(_ bytes: [UInt8], _ pattern: String, with replacement: [UInt8]) -> [UInt8] {
  let needle = Array(pattern.utf8)
  var result: [UInt8] = []
  var i = 0
  while i < bytes.count {
    if i + needle.count <= bytes.count, Array(bytes[i..<i + needle.count]) == needle {
      result += replacement
      i += needle.count
    } else {
      result.append(bytes[i])
      i += 1
    }
  }
  return result
}
