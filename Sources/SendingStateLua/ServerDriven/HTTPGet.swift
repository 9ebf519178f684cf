import CFetch
import Foundation
import Synchronization

/// One bounded HTTP(S) request — a GET, or a ``FetchRequest``'s method, headers and body —
/// through libcurl (the C module `CFetch`).
///
/// Bounded three ways: the body stops at `maxBytes` (a larger announced length is refused before
/// any byte is read, and a body that keeps coming is cut off there, so a hostile server cannot
/// make the host read or hold a gigabyte); the whole request stops at `timeout`, however slowly
/// the server drips; and cancelling the calling task stops the transfer within a second. Only
/// `http` and `https` are fetched, redirects included (at most 5).
///
/// NB: not `URLSession`: on Linux, FoundationNetworking keeps reading a fast endless body after
/// the task is cancelled (its cancellation waits behind the socket's reads) and buffers it; a
/// test server streaming on loopback grew the process by a gigabyte in three seconds. libcurl's
/// write callback stops a transfer the moment it says so.
enum HTTPGet {
  /// What the bodies of all fetches under way may hold together, in the process (C's default).
  static let budget = Int(SSFETCH_DEFAULT_BUDGET)

  /// A response larger than the limit.
  struct TooLarge: Error, CustomStringConvertible {
    let limit: Int
    var description: String { "the response is larger than \(limit) bytes (the limit is maxFetchBytes)" }
  }

  /// A response that did not complete in time.
  struct TimedOut: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "the request did not complete within \(seconds.formatted()) s (the limit is fetchTimeout)" }
  }

  /// Any other failure, in words naming the host.
  struct Failed: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
  }

  /// The body and status of `url`; throws ``TooLarge`` past `maxBytes`, ``TimedOut`` past
  /// `timeout`, `CancellationError` when the task is cancelled, and ``Failed`` otherwise
  /// (also when `url` or a redirect leads to a host outside `hosts`, when given).
  ///
  /// Bodies in flight count against a budget the process's fetches share (``budget``; `pool`:
  /// another one, for tests).
  static func fetch(
    _ url: URL, within hosts: [String]? = nil, maxBytes: Int, timeout: Duration, pool: Pool? = nil
  ) async throws -> (data: Data, status: Int) {
    try await send(FetchRequest(url: url), within: hosts, maxBytes: maxBytes, timeout: timeout, pool: pool)
  }

  /// As ``fetch(_:within:maxBytes:timeout:pool:)``, sending `request`'s method, headers and
  /// body; throws ``Failed`` when the request cannot be sent (``FetchRequest/problem``, checked
  /// again in C), or when a 307 or 308 would re-send its body to another origin. Redirects as
  /// browsers follow them: a 303, or a 301 or 302 after a POST, becomes a GET without the body.
  static func send(
    _ request: FetchRequest, within hosts: [String]? = nil, maxBytes: Int, timeout: Duration, pool: Pool? = nil
  ) async throws -> (data: Data, status: Int) {
    if let problem = request.problem() { throw Failed(message: "the request cannot be sent: \(problem)") }
    let milliseconds = timeout.saturatingMilliseconds
    let transfer = Transfer(request: request, hosts: hosts, maxBytes: max(0, maxBytes), milliseconds: milliseconds, pool: pool)
    let outcome = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // A thread of its own: the call blocks, and the cooperative pool has one thread a core.
        Thread { continuation.resume(with: transfer.run()) }.start()
      }
    } onCancel: {
      transfer.cancel()
    }
    return outcome
  }

  /// What `outcome` means, in words; `message` is libcurl's own account.
  static func error(_ outcome: Int32, message: String, url: URL, maxBytes: Int, milliseconds: Int) -> any Error {
    let host = url.host.map { name in url.port.map { "\(name):\($0)" } ?? name } ?? url.absoluteString
    switch Int(outcome) {
    case Int(SSFETCH_TOO_LARGE): return TooLarge(limit: maxBytes)
    case Int(SSFETCH_TIMED_OUT): return TimedOut(seconds: Double(milliseconds) / 1000)
    case Int(SSFETCH_CANCELLED): return CancellationError()
    case Int(SSFETCH_CONNECT): return Failed(message: "could not connect to \(host) (nothing is listening there)")
    case Int(SSFETCH_RESOLVE): return Failed(message: "no such host: \(host)")
    case Int(SSFETCH_TLS): return Failed(message: "the TLS connection to \(host) failed: \(message)")
    case Int(SSFETCH_SCHEME): return Failed(message: "only http and https URLs are fetched, not \(url.absoluteString)")
    case Int(SSFETCH_REDIRECTS): return Failed(message: "\(host) redirected more than \(SSFETCH_MAX_REDIRECTS) times")
    case Int(SSFETCH_NOT_GRANTED), Int(SSFETCH_BODY_REDIRECT): return Failed(message: message)
    case Int(SSFETCH_BAD_REQUEST): return Failed(message: "the request cannot be sent: \(message)")
    case Int(SSFETCH_OVER_BUDGET):
      return Failed(
        message: "the fetches under way would hold more than \(HTTPGet.budget / (1 << 20)) MiB together (the host's budget for bodies in flight); fetch less at once")
    default: return Failed(message: "the request to \(host) failed: \(message)")
    }
  }

  /// A budget for the bodies of fetches in flight, other than the process's (for tests).
  final class Pool: Sendable {
    nonisolated(unsafe) let pointer: OpaquePointer
    init(budget: Int) { pointer = ssfetch_pool_new(max(0, budget))! }
    deinit { ssfetch_pool_free(pointer) }
    /// What its bodies hold now.
    var held: Int { ssfetch_pool_held(pointer) }
  }

  /// What the process's fetches hold now.
  static var held: Int { ssfetch_pool_held(nil) }

  /// One transfer: its arguments, and the flag that cancels it.
  private final class Transfer: Sendable {
    let url: String
    let request: FetchRequest
    let hosts: [String]?
    let maxBytes: Int
    let milliseconds: Int
    nonisolated(unsafe) let flag: OpaquePointer

    let pool: Pool?

    init(request: FetchRequest, hosts: [String]?, maxBytes: Int, milliseconds: Int, pool: Pool?) {
      self.url = request.url.absoluteString
      self.request = request
      self.hosts = hosts
      self.pool = pool
      self.maxBytes = maxBytes
      self.milliseconds = milliseconds
      // Allocation failure of 4 bytes is not recoverable anyway.
      flag = ssfetch_cancel_new()!
    }

    deinit { ssfetch_cancel_free(flag) }

    func cancel() { ssfetch_cancel_set(flag) }

    func run() -> Result<(data: Data, status: Int), any Error> {
      var result = ssfetch_result()
      if let hosts, hosts.isEmpty {
        return .failure(HTTPGet.Failed(message: "no host is granted: the fetch connects nowhere"))
      }
      let outcome = withCStrings(hosts ?? []) { pointers in
        pointers.withUnsafeBufferPointer { buffer in
          request.withCRequest { cRequest in
            ssfetch_send_within(
              url, cRequest, hosts == nil ? nil : buffer.baseAddress, buffer.count, maxBytes, milliseconds, flag, pool?.pointer, &result)
          }
        }
      }
      defer { ssfetch_free(&result) }
      guard outcome == SSFETCH_OK else {
        let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return .failure(
          HTTPGet.error(outcome, message: message, url: URL(string: url)!, maxBytes: maxBytes, milliseconds: milliseconds))
      }
      let data = result.body.map { Data(bytes: $0, count: result.length) } ?? Data()
      return .success((data, Int(result.status)))
    }
  }
}

extension FetchRequest {
  /// The header lines as sent, `Name: value`, in the order of their names (case aside).
  var headerLines: [String] {
    headers.sorted { ($0.key.lowercased(), $0.key) < ($1.key.lowercased(), $1.key) }.map { "\($0.key): \($0.value)" }
  }

  /// Calls `body` with the request as C reads it (a GET without headers: NULL), valid only
  /// during the call.
  func withCRequest<R>(_ body: (UnsafePointer<ssfetch_request>?) -> R) -> R {
    if method == "GET", headers.isEmpty, self.body == nil { return body(nil) }
    return method.withCString { cMethod in
      withCStrings(headerLines) { lines in
        lines.withUnsafeBufferPointer { lineBuffer in
          let bytes = self.body ?? Data()
          return bytes.withUnsafeBytes { raw in
            // (An empty body still points somewhere: NULL means none.)
            withUnsafePointer(to: CChar(0)) { empty in
              let start = raw.baseAddress?.assumingMemoryBound(to: CChar.self) ?? empty
              var request = ssfetch_request(
                method: cMethod, headers: lineBuffer.baseAddress, header_count: lineBuffer.count,
                body: self.body == nil ? nil : start, body_length: raw.count)
              return withUnsafePointer(to: &request) { body($0) }
            }
          }
        }
      }
    }
  }

  /// What C's own check (`ssfetch_request_problem`) says of the method and the headers.
  var cProblem: String? {
    withCRequest { pointer in ssfetch_request_problem(pointer).map { String(cString: $0) } }
  }
}

/// Calls `body` with C strings of `strings` (valid only during the call).
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
  let copies = strings.map { strdup($0) }
  defer { copies.forEach { free($0) } }
  return body(copies.map { UnsafePointer($0) })
}

/// Calls `body` with a C array of C strings of `strings` (never NULL, even when empty).
func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
  withCStrings(strings) { pointers in
    let array = pointers + [nil]  // (a last NULL: never an empty, NULL-based array)
    return array.withUnsafeBufferPointer { body($0.baseAddress!) }
  }
}

extension Duration {
  /// Whole milliseconds, at least 1, saturating at `Int.max` (never a trap).
  var saturatingMilliseconds: Int {
    let (seconds, attoseconds) = components
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    if overflow || seconds < 0 { return seconds < 0 ? 1 : Int.max }
    let (sum, more) = product.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
    return more ? Int.max : Int(max(1, sum))
  }
}
