import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One HTTP GET with a size limit and a timeout, with a session of its own that is invalidated
/// afterwards.
///
/// The body is read as it streams: a response that announces or sends more than `maxBytes` is
/// aborted there, so a hostile server cannot make the host read a gigabyte.
///
/// NB: `URLSession.shared` keeps libcurl state for the life of the process (LeakSanitizer
/// reports it); a short-lived session releases everything when it is invalidated.
enum HTTPGet {
  /// A response larger than the limit.
  struct TooLarge: Error, CustomStringConvertible {
    let limit: Int
    var description: String { "the response is larger than \(limit) bytes (the limit is maxFetchBytes)" }
  }

  /// The body and status of `url`; throws ``TooLarge`` past `maxBytes`, and the transport's
  /// error (a timeout included) otherwise.
  static func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    let reader = BoundedReader(maxBytes: maxBytes)
    let configuration = URLSessionConfiguration.ephemeral
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    configuration.timeoutIntervalForRequest = seconds
    configuration.timeoutIntervalForResource = seconds
    let session = URLSession(configuration: configuration, delegate: reader, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    let task = session.dataTask(with: url)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        reader.start(task, continuation: continuation)
      }
    } onCancel: {
      task.cancel()
    }
  }
}

/// Collects one response body up to a limit (the session's delegate; its callbacks arrive on
/// the session's serial queue, and the lock guards the hand-over to the caller).
private final class BoundedReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let maxBytes: Int
  private let lock = NSLock()
  private var body = Data()
  private var status = 0
  private var tooLarge = false
  private var continuation: CheckedContinuation<(data: Data, status: Int), any Error>?

  init(maxBytes: Int) {
    self.maxBytes = maxBytes
  }

  func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<(data: Data, status: Int), any Error>) {
    lock.withLock { self.continuation = continuation }
    task.resume()
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    let announced = response.expectedContentLength
    lock.withLock {
      status = (response as? HTTPURLResponse)?.statusCode ?? 0
      if announced > maxBytes { tooLarge = true }
    }
    completionHandler(announced > maxBytes ? .cancel : .allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let over = lock.withLock {
      guard !tooLarge else { return true }
      if body.count + data.count > maxBytes {
        tooLarge = true
        body = Data()
        return true
      }
      body.append(data)
      return false
    }
    if over { dataTask.cancel() }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let (waiting, result): (CheckedContinuation<(data: Data, status: Int), any Error>?, Result<(data: Data, status: Int), any Error>) =
      lock.withLock {
        let waiting = continuation
        continuation = nil
        if tooLarge { return (waiting, .failure(HTTPGet.TooLarge(limit: maxBytes))) }
        if let error { return (waiting, .failure(error)) }
        return (waiting, .success((body, status)))
      }
    waiting?.resume(with: result)
  }
}
