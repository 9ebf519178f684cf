import Foundation
import Synchronization
import Testing

@testable import SendingStatePreview

/// Where a server said it listens.
private actor Listening {
  var url: String?
  func set(_ url: String) { self.url = url }
}

/// A server on any free port, running in a task, and its port.
private func startServer(
  _ configure: @Sendable (inout PreviewServer.Configuration) -> Void
) async throws -> (server: PreviewServer, task: Task<Void, any Error>, port: Int, token: PreviewToken) {
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
  return (server, task, port, token)
}

/// Whether `task` ends within `limit`. If not, `release` runs (it should let the task end, so a
/// failing test does not leave a server behind), and the answer is false.
private func ends(_ task: Task<Void, any Error>, within limit: Duration, release: @escaping @Sendable () -> Void) async -> Bool {
  if await race(task, limit) { return true }
  release()
  _ = await race(task, limit)
  return false
}

/// True if `task` ends first, false if `limit` passes first (awaiting a task's result does not
/// end on cancellation, so this cannot be a task group).
private func race(_ task: Task<Void, any Error>, _ limit: Duration) async -> Bool {
  let answer = Answer()
  return await withCheckedContinuation { continuation in
    answer.set(continuation)
    Task {
      _ = await task.result
      answer.give(true)
    }
    Task {
      try? await Task.sleep(for: limit)
      answer.give(false)
    }
  }
}

/// The first of two answers.
private final class Answer: Sendable {
  private let waiting = Mutex<CheckedContinuation<Bool, Never>?>(nil)
  func set(_ continuation: CheckedContinuation<Bool, Never>) { waiting.withLock { $0 = continuation } }
  func give(_ value: Bool) { waiting.withLock { $0.take() }?.resume(returning: value) }
}

/// A WebSocket page of the counter, connected and past its first message.
private func connectPage(port: Int, token: PreviewToken) async throws -> LoopbackClient {
  let page = try LoopbackClient(port: port)
  let head = [
    "GET /\(token)/ws HTTP/1.1", "Host: 127.0.0.1:\(port)", "Origin: http://127.0.0.1:\(port)", "Upgrade: websocket",
    "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
  ]
  page.write(Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8))
  #expect(try await offPool { page.readHead() }.contains(" 101 "))
  #expect(try object(try await offPool { page.receiveText() })["type"] as? String == "full")
  return page
}

@Suite("Preview server: connections that never finish asking")
struct FirstRequestGuardTests {
  @Test("a connection is closed when its first request's head is late; a page that asked in time is not")
  func lateHeadsAreClosed() async throws {
    let (server, task, port, token) = try await startServer { $0.firstRequestTimeout = .milliseconds(300) }
    let page = try await connectPage(port: port, token: token)
    let silent = try LoopbackClient(port: port)
    let partial = try LoopbackClient(port: port)
    partial.write(Array("GET /\(token)/ HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n".utf8))  // no empty line: not done
    let blankLines = try LoopbackClient(port: port)
    blankLines.write(Array("\r\n\r\n\r\n".utf8))  // empty lines before a request line end nothing

    #expect(try await offPool { silent.waitForClose() })
    #expect(try await offPool { partial.waitForClose() })
    #expect(try await offPool { blankLines.waitForClose() })
    // The page connected before all three, so its deadline passed too: it still answers.
    page.sendText(#"{"seq":1,"verb":"tap","id":"plus"}"#)
    #expect(try object(try await offPool { page.receiveText() })["seq"] as? Int == 1)
    // A head split across writes, finished in time, is an ordinary request.
    let split = try LoopbackClient(port: port)
    split.write(Array("GET /\(token)/ HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r".utf8))
    split.write(Array("\nConnection: close\r\n\r\n".utf8))
    #expect(try await offPool { split.readHead() }.contains(" 200 "))

    await server.stop()
    let ended = await ends(task, within: .seconds(60)) {
      for client in [page, silent, partial, blankLines] { client.hangUp() }
    }
    #expect(ended)
  }

  @Test("a stop does not wait for connections that never asked for anything")
  func stopLetsSilentConnectionsGo() async throws {
    // Neither the deadline nor the stop's grace period may be what ends them.
    let (server, task, port, token) = try await startServer {
      $0.firstRequestTimeout = .seconds(3600)
      $0.stopGrace = .seconds(3600)
    }
    let page = try await connectPage(port: port, token: token)
    let silent = try LoopbackClient(port: port)
    let partial = try LoopbackClient(port: port)
    partial.write(Array("GET /\(token)/ HTTP/1.1\r\n".utf8))
    // Both are accepted before the stop: a request on a fresh connection is answered.
    #expect(try await offPool { try LoopbackClient.get(port: port, path: "/\(token)/") }.status == 200)

    await server.stop()
    let ended = await ends(task, within: .seconds(60)) { for client in [page, silent, partial] { client.hangUp() } }
    #expect(ended)
    #expect(try await offPool { silent.waitForClose() })
    #expect(try await offPool { partial.waitForClose() })
    #expect(try await offPool { page.receiveText() } == nil)  // the page was let go
    await MainActor.run { #expect(server.host.session.screen.isClosed) }
  }

  @Test("cancelling the server's task closes every connection, even one that never asked")
  func cancellingClosesSilentConnections() async throws {
    let (_, task, port, _) = try await startServer { $0.firstRequestTimeout = .seconds(3600) }
    let silent = try LoopbackClient(port: port)
    #expect(try await offPool { try LoopbackClient.get(port: port, path: "/") }.status == 404)  // accepted by now

    task.cancel()
    let ended = await ends(task, within: .seconds(60)) { silent.hangUp() }
    #expect(ended)
    #expect(try await offPool { silent.waitForClose() })
  }

  @Test("a stop asked for before the server runs makes run return at once")
  func stopBeforeRun() async throws {
    let server = try await MainActor.run { try PreviewServer(path: repoPath("examples/counter/counter.lua")) }
    await server.stop()
    let task = Task { try await server.run { _ in Issue.record("it listened") } }
    let ended = await ends(task, within: .seconds(60)) {}
    #expect(ended)
    await MainActor.run { #expect(server.host.session.screen.isClosed) }
  }
}
