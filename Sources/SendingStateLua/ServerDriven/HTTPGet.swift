import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One HTTP GET, with a session of its own that is invalidated afterwards.
///
/// NB: `URLSession.shared` keeps libcurl state for the life of the process (LeakSanitizer
/// reports it); a short-lived session releases everything when it is invalidated.
enum HTTPGet {
  /// The body and status of `url`.
  static func fetch(_ url: URL) async throws -> (data: Data, status: Int) {
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(from: url)
    return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
  }
}
