import Foundation

/// Where a screen's `store:fetch` gets its answers: the network (``NetworkFetcher``, bounded
/// by the runtime's limits), or canned answers (``FakeFetcher``) so specs and tests of fetches
/// are deterministic and need no network.
///
/// ```swift
/// var options = LuaScreen.Options()
/// options.fetcher = FakeFetcher(["https://api.example.com/items": .init(status: 200, body: #"{"items":[]}"#)])
/// ```
public protocol ScreenFetcher: Sendable {
  /// The body and HTTP status of a GET of `url`, at most `maxBytes` long, within `timeout`;
  /// throws an error in words when there is no answer.
  func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int)
}

/// The network, through the host's bounded HTTP GET (libcurl: http and https only, at most 5
/// redirects, the body cut off at `maxBytes`).
public struct NetworkFetcher: ScreenFetcher {
  /// Creates the fetcher.
  public init() {}

  /// A real GET.
  public func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    try await HTTPGet.fetch(url, maxBytes: maxBytes, timeout: timeout)
  }
}

/// Canned answers by URL: a status and a body, or a failure in words. A URL without an answer
/// fails, naming the URLs that have one.
public struct FakeFetcher: ScreenFetcher {
  /// One canned answer.
  public struct Response: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: String
    /// A failure instead of an answer (`"timed out"`): the fetch's `fail` action gets it.
    public var error: String?

    /// An answer (`error` given: a failure instead).
    public init(status: Int = 200, body: String = "", error: String? = nil) {
      self.status = status
      self.body = body
      self.error = error
    }
  }

  /// The answers, by URL as the script writes it.
  public var responses: [String: Response]

  /// Creates a fetcher with these answers.
  public init(_ responses: [String: Response]) {
    self.responses = responses
  }

  /// The canned answer (cut off at `maxBytes` as a real one would be: refused).
  public func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    guard let response = responses[url.absoluteString] else {
      throw FakeFetchError(message: "no fake answer for \(url.absoluteString) (answers for: \(responses.keys.sorted().joined(separator: ", ")))")
    }
    if let error = response.error { throw FakeFetchError(message: error) }
    let data = Data(response.body.utf8)
    guard data.count <= maxBytes else {
      throw FakeFetchError(message: "the answer from \(url.absoluteString) is larger than \(maxBytes) bytes (maxFetchBytes)")
    }
    return (data, response.status)
  }
}

/// A fake fetch's failure, in words.
struct FakeFetchError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
