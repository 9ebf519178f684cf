import Foundation
import SendingStateHeadless
import Testing

@testable import SendingStateLua

/// What a screen keeps for its whole life is bounded, and what an effect brings back always
/// arrives as its `ok` or its `fail` action.
@Suite("Bounded records: the action log and async errors keep the recent ones; a fetch always ends in ok or fail")
@MainActor
struct BoundedRecordsTests {
  static let source = """
    return {
      state = { ticks = 0, result = "" },
      layout = function(ui) return ui.label { id = "l" } end,
      configure = function() end,
      handle = function(action, store)
        if action.type == "start" or action.type == "tick" then
          if action.type == "tick" then store:update(function(s) s.ticks = s.ticks + 1 end) end
          store:after(1, "tick")
        elseif action.type == "shout" then
          store:dispatch({ type = "loud", text = string.rep("x", 1000000) })
        elseif action.type == "carry" then
          store:after(1, { type = "later", blob = string.rep("a", action.bytes) })   -- line 12
        elseif action.type == "reset" then
          store:update(function(s) s.result = "" end)
        elseif action.type == "fetch" then
          store:fetch(action.url, { ok = "ok", fail = "fail" })
        elseif action.type == "ok" then
          store:update(function(s) s.result = "ok" .. (action.json and "+json" or "") .. (action.json_error and (": " .. action.json_error) or "") end)
        elseif action.type == "fail" then
          store:update(function(s) s.result = "fail: " .. action.error end)
        end
      end,
    }
    """

  func open(_ options: LuaScreen.Options) throws -> (LuaScreen, String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-bounded-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Self.source.write(toFile: folder + "/screen.lua", atomically: true, encoding: .utf8)
    return (try LuaScreen(path: folder + "/screen.lua", options: options), folder)
  }

  @Test("a timer that re-arms itself for ever keeps a bounded action log, and counts every action")
  func actionLog() async throws {
    var options = LuaScreen.Options()
    options.clock = VirtualClock(now: 0)
    let (screen, folder) = try open(options)
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    try screen.perform(action: "start")
    try await screen.advance(by: 5_000)
    #expect(screen.state["ticks"] == 5_000)
    #expect(screen.actionCount == 5_001)
    #expect(screen.actionLog.count == LuaScreen.actionLogLimit)
    #expect(screen.actions(since: 4_991).count == 10)
    #expect(screen.actions(since: 4_991).allSatisfy { $0["type"] == "tick" })
    #expect(screen.actions(since: 0).count == screen.actionLog.count)
  }

  @Test("the action log is bounded in bytes too: big actions at every event keep at most actionLogBytes")
  func actionLogBytes() throws {
    let (screen, folder) = try open(LuaScreen.Options())
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    for _ in 0..<40 { try screen.perform(action: "shout") }
    #expect(screen.actionCount == 80)
    let kept = screen.actionLog.reduce(0) { $0 + $1.estimatedBytes }
    #expect(kept <= LuaScreen.actionLogBytes, "\(kept)")
    #expect(screen.actionLog.last?["type"] == "loud")
    #expect(screen.actionLog.count < 20)
  }

  @Test("a fetched answer nested as deep as the limit, or deeper, still ends in ok (json or why not) — never vanishes")
  func deepAnswers() async throws {
    var answers: [String: FakeFetcher.Response] = [:]
    for depth in 58...70 {
      answers["https://api.example.com/\(depth)"] = .init(body: String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
    }
    var options = LuaScreen.Options()
    options.fetcher = FakeFetcher(answers)
    let (screen, folder) = try open(options)
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    for depth in 58...70 {
      try screen.perform(action: "reset")
      try screen.perform(action: ["type": "fetch", "url": .string("https://api.example.com/\(depth)")])
      #expect(await screen.settle(timeout: .seconds(60)))
      let result = screen.state["result"].stringValue ?? ""
      #expect(result.hasPrefix("ok"), "depth \(depth): \(result); \(screen.asyncErrors)")
      #expect(screen.asyncErrors.isEmpty, "depth \(depth): \(screen.asyncErrors)")
    }
  }

  @Test("odd URLs (escapes Foundation rewrites, user info, brackets) still end in ok or fail, never nowhere")
  func oddURLs() async throws {
    let (screen, folder) = try open(LuaScreen.Options())
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    for url in [
      "http://127.0.0.1:9/%zz", "http://127.0.0.1:9/a|b", "http://127.0.0.1:9/{x}", "http://127.0.0.1:9/é", "http://user:p@ss@127.0.0.1:9/",
      "http://[::1]:9/x", "http://127.0.0.1:9/%00",
    ] {
      try screen.perform(action: "reset")
      do {
        try screen.perform(action: ["type": "fetch", "url": .string(url)])
      } catch let error as ScriptError {
        // Refused at the script's line (libcurl cannot read it): nothing started.
        #expect(error.line == 16 && screen.pendingEffects == 0, "\(url): \(error)")
        continue
      }
      #expect(await screen.settle(timeout: .seconds(60)))
      #expect(screen.state["result"].stringValue?.hasPrefix("fail: ") == true, "\(url): \(screen.state["result"])")
    }
  }

  @Test("an effect carries at most maxEffectBytes of data for later (the host keeps a copy of it outside the Lua heap)")
  func effectData() throws {
    let (screen, folder) = try open(LuaScreen.Options())
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    try screen.perform(action: ["type": "carry", "bytes": 200_000])
    #expect(screen.pendingEffects == 1)
    let error = #expect(throws: ScriptError.self) { try screen.perform(action: ["type": "carry", "bytes": 300_000]) }
    #expect(error?.message.hasPrefix("the action of store:after carries more than 262144 bytes of data (maxEffectBytes)") == true, "\(String(describing: error))")
    #expect(error?.line == 12)
    #expect(screen.pendingEffects == 1)
  }

  @Test("a long text written to a different label at each event is one buffer in every view, not a copy each")
  func longTextsAcrossEvents() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-long-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try """
      local big = string.rep("x", 1 << 20)
      return {
        state = { shown = 0 },
        layout = function(ui)
          local labels = {}
          for i = 1, 30 do labels[i] = ui.label { id = "l" .. i } end
          return ui.stack(labels)
        end,
        configure = function(view, state)
          if state.shown > 0 then view["l" .. state.shown].text = big end
        end,
        handle = function(action, store) store:update(function(s) s.shown = s.shown + 1 end) end,
      }
      """.write(toFile: folder + "/screen.lua", atomically: true, encoding: .utf8)
    let screen = try LuaScreen(path: folder + "/screen.lua")
    defer { screen.close() }
    for _ in 1...30 { try screen.perform(action: "next") }
    var buffers: Set<UInt> = []
    for index in 1...30 {
      let label = try #require(screen.viewsByID["l\(index)"] as? Label)
      #expect(label.text.utf8.count == 1 << 20)
      var text = label.text
      buffers.insert(text.withUTF8 { UInt(bitPattern: $0.baseAddress) })
    }
    #expect(buffers.count == 1, "\(buffers.count) copies of one text")
  }

  @Test("throttling under ever new ids keeps a bounded number of windows (each outlives its effect by up to an hour)")
  func throttleWindows() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-bounded-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try """
      return {
        state = {},
        layout = function(ui) return ui.label { id = "l" } end,
        configure = function() end,
        handle = function(action, store)
          if action.type == "open" then
            for i = 1, 50 do
              store:after(0, "noop", { id = string.rep("w", 180) .. (action.base + i), throttle = 3600 })
            end
          end
        end,
      }
      """.write(toFile: folder + "/screen.lua", atomically: true, encoding: .utf8)
    var options = LuaScreen.Options()
    options.clock = VirtualClock(now: 0)
    let screen = try LuaScreen(path: folder + "/screen.lua", options: options)
    defer { screen.close() }
    for round in 0..<100 {
      try screen.perform(action: ["type": "open", "base": .number(Double(round * 50))])
      try await screen.advance(by: 1)
    }
    #expect(screen.pendingEffects == 0)
    #expect(screen.actionCount == 100 + 100 * 50, "every throttled effect still ran once")
    #expect(screen.throttleWindowCount <= ScreenEngine.maxThrottleWindows, "\(screen.throttleWindowCount) windows kept")
  }
}
