import Foundation
import Testing

@testable import SendingStatePreview

@Suite("Preview server: through its socket, as a browser would reach it")
struct PreviewServerTests {
  @Test("the page needs the token and a loopback Host; the WebSocket drives the screen; cancelling stops it")
  func endToEnd() async throws {
    let (server, task, address, port, token) = try await startServer()
    #expect(address.hasPrefix("http://127.0.0.1:") && address.hasSuffix("/\(token)/"))

    let page = try await offPool { try LoopbackClient.get(port: port, path: "/\(token)/") }
    #expect(page.status == 200 && page.body.contains("preview.js"))
    #expect(page.head.contains("Content-Security-Policy: default-src 'none'"))
    #expect(page.head.contains("Referrer-Policy: no-referrer"))
    #expect(try await offPool { try LoopbackClient.get(port: port, path: "/\(token)") }.status == 301)
    #expect(try await offPool { try LoopbackClient.get(port: port, path: "/") }.status == 404)
    #expect(try await offPool { try LoopbackClient.get(port: port, path: "/ffffffffffffffffffffffffffffffff/") }.status == 404)
    #expect(try await offPool { try LoopbackClient.get(port: port, path: "/\(token)/", host: "evil.example:\(port)") }.status == 404)
    #expect(try await offPool { try LoopbackClient.get(port: port, path: "/\(token)/files/counter.lua") }.status == 404)

    let upgrade = [
      "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
    ]
    let foreign = try LoopbackClient(port: port)
    foreign.write(Array((["GET /\(token)/ws HTTP/1.1", "Host: 127.0.0.1:\(port)", "Origin: http://evil.example"] + upgrade).joined(separator: "\r\n").utf8) + [13, 10, 13, 10])
    #expect(try await !offPool { foreign.readHead() }.contains(" 101 "))

    let socket = try LoopbackClient(port: port)
    socket.write(Array((["GET /\(token)/ws HTTP/1.1", "Host: 127.0.0.1:\(port)", "Origin: http://127.0.0.1:\(port)"] + upgrade).joined(separator: "\r\n").utf8) + [13, 10, 13, 10])
    let head = try await offPool { socket.readHead() }
    #expect(head.contains(" 101 ") && head.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
    #expect(try object(try await offPool { socket.receiveText() })["type"] as? String == "full")
    socket.sendText(#"{"seq":1,"verb":"tap","id":"plus"}"#)
    let patch = try object(try await offPool { socket.receiveText() })
    #expect(patch["seq"] as? Int == 1)
    #expect(((patch["ops"] as? [[String: Any]])?.first?["p"] as? [String: Any])?["text"] as? String == "2")

    task.cancel()
    _ = await task.result
    #expect(try await offPool { socket.receiveText() } == nil)  // the page is disconnected
    // Our server no longer answers (another test's listener may have been given the port since,
    // so a connection alone proves nothing; our page would).
    let after = try? await offPool { try LoopbackClient.get(port: port, path: "/\(token)/") }
    #expect(after.map { $0.status != 200 || !$0.body.contains("preview.js") } ?? true)
    await MainActor.run { #expect(server.host.session.screen.isClosed) }
  }
}
