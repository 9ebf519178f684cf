import Foundation
import Synchronization

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

  /// A transport failure that is not a `URLError`.
  struct Failed: Error, CustomStringConvertible, LocalizedError {
    let message: String
    var description: String { message }
    var errorDescription: String? { message }
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
/// the session's queue, and the mutex guards the hand-over to the caller).
private final class BoundedReader: NSObject, URLSessionDataDelegate, Sendable {
  private struct Progress {
    var body = Data()
    var status = 0
    var tooLarge = false
    var continuation: CheckedContinuation<(data: Data, status: Int), any Error>?
  }

  private let maxBytes: Int
  private let progress = Mutex(Progress())

  init(maxBytes: Int) {
    self.maxBytes = maxBytes
  }

  func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<(data: Data, status: Int), any Error>) {
    progress.withLock { $0.continuation = continuation }
    task.resume()
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    let announced = response.expectedContentLength
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    progress.withLock {
      $0.status = status
      if announced > maxBytes { $0.tooLarge = true }
    }
    completionHandler(announced > maxBytes ? .cancel : .allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let limit = maxBytes
    let over = progress.withLock { progress -> Bool in
      guard !progress.tooLarge else { return true }
      if progress.body.count + data.count > limit {
        progress.tooLarge = true
        progress.body = Data()
        return true
      }
      progress.body.append(data)
      return false
    }
    if over { dataTask.cancel() }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let limit = maxBytes
    let failure = error.map { "\($0)" }
    let transportError = error as? URLError
    let (waiting, result) = progress.withLock {
      progress -> (CheckedContinuation<(data: Data, status: Int), any Error>?, Result<(data: Data, status: Int), any Error>) in
      let waiting = progress.continuation
      progress.continuation = nil
      if progress.tooLarge { return (waiting, .failure(HTTPGet.TooLarge(limit: limit))) }
      if let transportError { return (waiting, .failure(transportError)) }
      if let failure { return (waiting, .failure(HTTPGet.Failed(message: failure))) }
      return (waiting, .success((progress.body, progress.status)))
    }
    waiting?.resume(with: result)
  }
}
