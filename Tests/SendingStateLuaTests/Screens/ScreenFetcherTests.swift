import Foundation
import Testing

@testable import SendingStateLua

@Suite("Fake fetches: canned answers by URL, held to the same limits as the network")
@MainActor
struct ScreenFetcherTests {
  func open(_ answers: [String: FakeFetcher.Response], limits: LuaRuntime.Limits = .init()) throws -> LuaScreen {
    var options = LuaScreen.Options(limits: limits)
    options.fetcher = FakeFetcher(answers)
    return try LuaScreen(path: screenFixture("effects.lua"), options: options)
  }

  @Test("a fake answer comes back as the ok action with its body's json; a failure or an unknown URL goes to fail")
  func answers() async throws {
    let url = "https://api.example.com/hello"
    let screen = try open([url: .init(status: 200, body: #"{"greeting": "hi"}"#), "https://down.example.com/": .init(error: "timed out")])
    try screen.perform(action: ["type": "load", "url": .string(url)])
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(screen.state["greeting"] == "hi")
    try screen.perform(action: ["type": "load", "url": "https://down.example.com/"])
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(screen.state["failed"] == "timed out")
    try screen.perform(action: ["type": "load", "url": "https://nowhere.example.com/"])
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(screen.state["failed"] == "no fake answer for https://nowhere.example.com/ (answers for: https://api.example.com/hello, https://down.example.com/)")
  }

  @Test("a fake answer larger than maxFetchBytes fails as a real one would")
  func limit() async throws {
    var limits = LuaRuntime.Limits()
    limits.maxFetchBytes = 10
    let url = "https://api.example.com/big"
    let screen = try open([url: .init(body: String(repeating: "x", count: 11))], limits: limits)
    try screen.perform(action: ["type": "load", "url": .string(url)])
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(screen.state["failed"].stringValue == "the answer from \(url) is larger than 10 bytes (maxFetchBytes)")
  }
}
