import Foundation
import SendingStateTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Nested in the serialized end-to-end suite: one child process at a time.
extension CLIEndToEndTests {
  @Suite("sendingstate preview keeps a screen's URL across restarts")
  struct PreviewURLTests {
    /// Starts a preview of the counter with `cache` as the user's cache folder; returns the URL
    /// it prints, then stops it.
    func previewURL(cache: String, _ extra: [String] = [], environment: [String] = []) async throws -> String {
      let child = try ChildProcess(
        executable: "/usr/bin/env",
        arguments: ["XDG_CACHE_HOME=\(cache)"] + environment + [binaryPath, "preview", "examples/counter/counter.lua"] + extra,
        directory: repositoryRoot.path)
      child.closeInput()
      let started = await child.waitFor(timeout: 60) { $0.contains("preview: http://") }
      child.terminate()
      _ = await child.wait()
      #expect(started, "\(child.errors)")
      return child.output.split(separator: "\n").first { $0.hasPrefix("preview: http://") }.map(String.init) ?? ""
    }

    @Test("the same URL after a restart; a port taken since gives another port with the same token; --token chooses it")
    func sameURL() async throws {
      let cache = try temporaryFolder("ss-cache")
      defer { try? FileManager.default.removeItem(at: cache) }
      let first = try await previewURL(cache: cache.path)
      #expect(first.hasPrefix("preview: http://127.0.0.1:"), "\(first)")
      #expect(try await previewURL(cache: cache.path) == first)

      // Something else listens on that port now.
      let address = first.dropFirst("preview: http://127.0.0.1:".count)
      let port = try #require(UInt16(address.prefix { $0.isNumber }))
      let token = String(address.drop { $0 != "/" }.dropFirst().prefix { $0 != "/" })
      let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      try #require(listener >= 0)
      var inet = sockaddr_in()
      inet.sin_family = sa_family_t(AF_INET)
      inet.sin_addr.s_addr = inet_addr("127.0.0.1")
      inet.sin_port = port.bigEndian
      let bound = withUnsafePointer(to: &inet) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
      #expect(bound == 0 && listen(listener, 1) == 0)
      let moved = try await previewURL(cache: cache.path)
      close(listener)
      #expect(moved.hasSuffix("/\(token)/") && moved != first, "\(moved)")

      let chosen = try await previewURL(cache: cache.path, ["--token", "0123456789abcdef0123456789abcdef"])
      #expect(chosen.hasSuffix("/0123456789abcdef0123456789abcdef/"), "\(chosen)")
      let bad = try await runCLI(["preview", "examples/counter/counter.lua", "--token", "../../x"])
      #expect(bad.status == 2 && bad.stderr.contains("--token: give 32 lowercase hex digits"), "\(bad.stderr)")
    }

    @Test("SENDINGSTATE_PREVIEW_TOKEN chooses the token without showing it in ps; --token wins over it")
    func tokenFromEnvironment() async throws {
      let cache = try temporaryFolder("ss-cache")
      defer { try? FileManager.default.removeItem(at: cache) }
      let variable = "SENDINGSTATE_PREVIEW_TOKEN=fedcba9876543210fedcba9876543210"
      let chosen = try await previewURL(cache: cache.path, environment: [variable])
      #expect(chosen.hasSuffix("/fedcba9876543210fedcba9876543210/"), "\(chosen)")
      let overridden = try await previewURL(
        cache: cache.path, ["--token", "0123456789abcdef0123456789abcdef"], environment: [variable])
      #expect(overridden.hasSuffix("/0123456789abcdef0123456789abcdef/"), "\(overridden)")

      let child = try ChildProcess(
        executable: "/usr/bin/env",
        arguments: ["XDG_CACHE_HOME=\(cache.path)", "SENDINGSTATE_PREVIEW_TOKEN=nope", binaryPath, "preview", "examples/counter/counter.lua"],
        directory: repositoryRoot.path)
      child.closeInput()
      let status = await child.wait()
      #expect(status == 2 && child.errors.contains("SENDINGSTATE_PREVIEW_TOKEN: give 32 lowercase hex digits"), "\(child.errors)")
    }
  }
}
