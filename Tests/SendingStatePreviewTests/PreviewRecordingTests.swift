import Foundation
import SendingStateLua
import SendingStateTestSupport
import SendingStateTools
import Testing

@testable import SendingStatePreview

/// `sendingstate test SPEC` in the spec's folder: its exit status and output.
private func runSpec(_ spec: String) async throws -> (status: Int32, output: String) {
  let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sendingstate").path
  let binary = FileManager.default.isExecutableFile(atPath: beside) ? beside : repoPath(".build/debug/sendingstate")
  let child = try ChildProcess(executable: binary, arguments: ["test", spec], directory: (spec as NSString).deletingLastPathComponent)
  child.closeInput()
  let status = await child.wait()
  return (status, child.output + child.errors)
}

@Suite("Preview Record: the session written as a spec the page saves", .serialized)
@MainActor
struct PreviewRecordingTests {
  /// A copy of spec/screens/ticker.lua (a timer) in a folder of its own.
  func ticker() throws -> (folder: URL, screen: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-preview-record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let screen = folder.appendingPathComponent("ticker.lua").path
    try FileManager.default.copyItem(atPath: repoPath("spec/screens/ticker.lua"), toPath: screen)
    return (folder, screen)
  }

  /// The next message of type `type` from `iterator`.
  func next(_ type: String, from iterator: inout PageOutbox.AsyncIterator) async throws -> [String: Any] {
    while let text = await iterator.next() {
      let message = try object(text)
      if message["type"] as? String == type { return message }
    }
    throw PreviewRequest.Invalid(description: "the page's stream ended before a \(type) message")
  }

  @Test("Record, events, the clock moving, Save spec: the spec passes, and fails once the timer is slower")
  func recordsTimers() async throws {
    let (folder, screen) = try ticker()
    defer { try? FileManager.default.removeItem(at: folder) }
    let host = try PreviewHost(path: screen)
    defer { host.session.screen.close() }
    let (client, messages) = try #require(host.connect())
    var iterator = messages.makeAsyncIterator()
    _ = try await next("full", from: &iterator)
    host.receive(#"{"seq":1,"record":"start"}"#, from: client)
    let started = try #require(try await next("patch", from: &iterator)["panel"] as? [String: Any])
    #expect((started["recording"] as? [String: Any])?["events"] as? Int == 0)
    #expect((started["status"] as? String)?.hasPrefix("recording:") == true)
    #expect(host.drivesClock && host.session.screen.options.clock is VirtualClock)

    host.receive(#"{"seq":2,"verb":"tap","id":"start"}"#, from: client)
    // The preview's clock, moved by hand here (refresh moves it with real time): the tick is due
    // at 0.01 s.
    await host.tick(by: 0.004)
    #expect(host.session.screen.state["ticks"] == .integer(0))
    await host.tick(by: 0.3)
    #expect(host.session.screen.state["ticks"] == .integer(1))
    host.receive(#"{"seq":3,"verb":"tap","id":"start"}"#, from: client)
    await host.tick(by: 2)  // (at most a second a tick)
    host.receive(#"{"seq":4,"record":"save"}"#, from: client)
    let spec = try await next("spec", from: &iterator)
    #expect(spec["name"] as? String == "ticker_spec.lua")
    let text = try #require(spec["text"] as? String)
    #expect(text.contains("screen:advance(0.304)\n  screen:receive(\"tick\", function(s)\n    s.ticks = 1\n"), "\(text)")
    #expect(text.contains("screen:advance(1)\n"), "\(text)")
    let file = folder.appendingPathComponent("ticker_spec.lua").path
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    let passing = try await runSpec(file)
    #expect(passing.status == 0 && passing.output.contains("1 passed, 0 failed"), "\(passing.output)")
    try String(contentsOfFile: screen, encoding: .utf8).replacingOccurrences(of: "store:after(0.01, \"tick\")", with: "store:after(0.5, \"tick\")")
      .write(toFile: screen, atomically: true, encoding: .utf8)
    let failing = try await runSpec(file)
    #expect(failing.status == 1 && failing.output.contains("0 passed, 1 failed"), "\(failing.output)")
  }

  @Test("messages that come while the clock moves wait for it; Save before Record and Stop say so; a reload stops recording")
  func lifecycle() async throws {
    let (folder, screen) = try ticker()
    defer { try? FileManager.default.removeItem(at: folder) }
    let host = try PreviewHost(path: screen)
    defer { host.session.screen.close() }
    let (client, messages) = try #require(host.connect())
    var iterator = messages.makeAsyncIterator()
    _ = try await next("full", from: &iterator)
    host.receive(#"{"seq":1,"record":"save"}"#, from: client)
    #expect((try await next("patch", from: &iterator)["panel"] as? [String: Any])?["status"] as? String == "nothing recorded: press Record first")
    host.receive(#"{"seq":2,"record":"start"}"#, from: client)
    _ = try await next("patch", from: &iterator)
    // A message during a tick waits for its end.
    host.isTicking = true
    host.receive(#"{"seq":3,"verb":"tap","id":"start"}"#, from: client)
    #expect(host.recorder?.events == 0 && host.waiting.count == 1)
    host.isTicking = false
    await host.tick(by: 0.5)
    #expect(host.recorder?.events == 1 && host.waiting.isEmpty)
    #expect(host.session.screen.pendingEffects == 1)
    host.reload()
    #expect(host.recorder == nil)
    host.receive(#"{"seq":4,"record":"stop"}"#, from: client)
    var stopped: String?
    while stopped == nil, let text = await iterator.next() {
      let message = try object(text)
      if message["seq"] as? Int == 4 { stopped = (message["panel"] as? [String: Any])?["status"] as? String }
    }
    #expect(stopped == "not recording")
    #expect(throws: PreviewRequest.Invalid.self) { try PreviewRequest(text: #"{"record":"erase"}"#) }
  }

  @Test("a session a spec cannot open the same way is refused; Stop gives the screen its fetches and random numbers back")
  func refusalsAndStop() async throws {
    let (folder, screen) = try ticker()
    defer { try? FileManager.default.removeItem(at: folder) }
    var options = LuaScreen.Options()
    options.scriptRoots = [folder.path]
    let rooted = try PreviewHost(path: screen, options: options)
    defer { rooted.session.screen.close() }
    rooted.handleRecording(.start, for: 0)
    #expect(rooted.recorder == nil && rooted.status.hasPrefix("this session cannot be recorded: it runs with --root"), "\(rooted.status)")
    let host = try PreviewHost(path: screen)
    defer { host.session.screen.close() }
    host.handleRecording(.start, for: 0)
    #expect(host.recorder != nil && host.session.options.randomSeed == 1 && host.session.options.fetcher is FakeFetcher)
    host.handleRecording(.stop, for: 0)
    #expect(host.recorder == nil && host.session.options.randomSeed == nil && !(host.session.options.fetcher is FakeFetcher))
    #expect(host.status.hasPrefix("recording stopped: the screen runs as before it"), "\(host.status)")
  }
}
