import Foundation
import SendingStateLua
import SendingStateTools
import Testing

@testable import SendingStatePreview

/// Rewind: the timeline of moments, restoring one, and the screen's clock paused and stepped.
/// Every test runs on a virtual clock it moves itself; nothing waits for real time.
@Suite("Preview Rewind: the timeline, restore, the clock paused and stepped, pending effects", .serialized)
@MainActor
struct PreviewRewindTests {
  /// A copy of spec/screens/rewind.lua in a folder of its own, behind a host on a virtual
  /// clock at 100 s; a page connected, its first message read.
  @MainActor
  final class Fixture {
    let folder: URL
    let screen: String
    let clock = VirtualClock(now: 100)
    let host: PreviewHost
    let client: Int
    let outbox: PageOutbox

    init(state: LuaValue? = nil) throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-preview-rewind-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      screen = folder.appendingPathComponent("rewind.lua").path
      try FileManager.default.copyItem(atPath: repoPath("spec/screens/rewind.lua"), toPath: screen)
      var options = LuaScreen.Options(state: state)
      options.clock = clock
      host = try PreviewHost(path: screen, options: options, limiter: RateLimiter(perSecond: 1_000_000, burst: 1_000_000))
      let (id, messages) = try #require(host.connect())
      client = id
      outbox = messages
      _ = messages.takeQueued()
    }

    /// Closes the screen and removes the folder.
    func close() {
      host.session.screen.close()
      try? FileManager.default.removeItem(at: folder)
    }

    /// Sends `text` as the page; returns the messages it got back.
    func send(_ text: String) async throws -> [[String: Any]] {
      host.receive(text, from: client)
      await host.clockTask?.value
      return try outbox.takeQueued().map(object)
    }

    /// The panel's error message in `messages`' last patch, if any.
    func problem(in messages: [[String: Any]]) -> String? {
      let panel = messages.last { $0["type"] as? String == "patch" }?["panel"] as? [String: Any]
      return (panel?["error"] as? [String: Any])?["message"] as? String
    }

    var ticks: Int? { host.session.screen.state["ticks"].intValue }
  }

  // MARK: - Attacks first

  @Test("bad Rewind messages are refused with a reason: odd moment numbers, clock words, steps of NaN, 0, negative or huge")
  func badMessages() throws {
    let refused: [(String, String)] = [
      (#"{"moment":-1}"#, "moment must be"),
      (#"{"moment":9007199254740992}"#, "moment must be"),
      (#"{"moment":1.5}"#, "not the preview's JSON"),
      (#"{"moment":"3"}"#, "not the preview's JSON"),
      (#"{"restore":-5}"#, "restore must be"),
      (#"{"restore":99999999999999999999}"#, "not the preview's JSON"),
      (#"{"clock":"stop"}"#, "clock must be"),
      (#"{"clock":"step"}"#, "needs by"),
      (#"{"clock":"step","by":0}"#, "by must be"),
      (#"{"clock":"step","by":-1}"#, "by must be"),
      (#"{"clock":"step","by":61}"#, "by must be"),
      (#"{"clock":"step","by":1e300}"#, "by must be"),
      (#"{"clock":"step","by":NaN}"#, "not the preview's JSON"),
      (#"{"clock":"step","by":"0.5"}"#, "not the preview's JSON"),
      (#"{"clock":"pause","by":1}"#, "by goes with clock"),
      (#"{"by":1}"#, "by goes with clock"),
    ]
    for (text, reason) in refused {
      do {
        let request = try PreviewRequest(text: text)
        Issue.record("\(text) decoded as \(request)")
      } catch let invalid as PreviewRequest.Invalid {
        #expect(invalid.description.contains(reason), "\(text): \(invalid.description)")
      }
    }
    #expect(try PreviewRequest(text: #"{"seq":2,"moment":3}"#).action == .moment(3))
    #expect(try PreviewRequest(text: #"{"restore":0}"#).action == .restore(0))
    #expect(try PreviewRequest(text: #"{"clock":"step","by":0.25}"#).action == .clock(.step(0.25)))
    #expect(try PreviewRequest(text: #"{"clock":"next"}"#).action == .clock(.next))
    #expect(try PreviewRequest(text: #"{"clock":"resume"}"#).action == .clock(.resume))
  }

  @Test("a moment or restore the timeline does not hold answers an error naming what it holds, and changes nothing")
  func missingMoments() async throws {
    let page = try Fixture()
    defer { page.close() }
    _ = try await page.send(#"{"seq":1,"verb":"tap","id":"search"}"#)
    let screen = page.host.session.screen
    let before = (page.host.timeline.moments.map(\.id), screen.state, screen.pendingList, page.host.log.count)
    for text in [#"{"seq":2,"moment":7}"#, #"{"seq":3,"restore":7}"#, #"{"seq":4,"restore":9007199254740991}"#] {
      let answer = try await page.send(text)
      let problem = try #require(page.problem(in: answer), "\(text)")
      #expect(problem.contains("there is no moment #") && problem.contains("it holds 2 moment(s), #0…#1"), "\(problem)")
    }
    #expect(page.host.session.screen === screen)
    #expect(page.host.timeline.moments.map(\.id) == before.0 && screen.state == before.1)
    #expect(screen.pendingList == before.2 && page.host.log.count == before.3)
  }

  @Test("a restore drops the later moments: asking for one of them, or restoring it, is an error that says why")
  func restoreOfADroppedMoment() async throws {
    let page = try Fixture()
    defer { page.close() }
    _ = try await page.send(#"{"seq":1,"clock":"pause"}"#)
    for seq in 2...4 {
      _ = try await page.send(#"{"seq":\#(seq),"verb":"tap","id":"tick"}"#)
      _ = try await page.send(#"{"seq":\#(seq + 10),"clock":"step","by":1}"#)
    }
    #expect(page.ticks == 3)
    // #0 start; each round: the tap, then the timer's effect.
    #expect(page.host.timeline.moments.map(\.kind) == [.start, .event, .effect, .event, .effect, .event, .effect])
    let answer = try await page.send(#"{"seq":20,"restore":2}"#)
    #expect(page.ticks == 1)
    let full = try #require(answer.first { $0["type"] as? String == "full" })
    let panel = try #require(full["panel"] as? [String: Any])
    #expect((panel["status"] as? String)?.hasPrefix("restored moment #2") == true)
    #expect((panel["timeline"] as? [String: Any])?["ids"] as? [Int] == [0, 1, 2, 7])
    let log = try #require(panel["log"] as? [[String: Any]])
    #expect(log.compactMap { $0["moment"] as? Int } == [0, 1, 2, 7])
    #expect(log.last?["kind"] as? String == "restore" && (log.last?["event"] as? String)?.hasPrefix("restore #2") == true)
    for text in [#"{"seq":21,"moment":4}"#, #"{"seq":22,"restore":5}"#] {
      let problem = try #require(page.problem(in: try await page.send(text)))
      #expect(problem.contains("is no longer in the timeline") && problem.contains("a restore drops the moments after"), "\(problem)")
    }
    #expect(page.ticks == 1 && page.host.timeline.moments.map(\.id) == [0, 1, 2, 7])
  }

  @Test("a state the script no longer accepts is not restored: the screen, its effects and the timeline stay as they were")
  func refusedRestore() async throws {
    let page = try Fixture()
    defer { page.close() }
    _ = try await page.send(#"{"seq":1,"clock":"pause"}"#)
    _ = try await page.send(#"{"seq":2,"verb":"tap","id":"tick"}"#)
    _ = try await page.send(#"{"seq":3,"clock":"step","by":1}"#)
    _ = try await page.send(#"{"seq":4,"verb":"tap","id":"tick"}"#)
    let screen = page.host.session.screen
    let before = (screen.state, screen.pendingList, page.host.timeline.moments.map(\.id))
    #expect(before.1.count == 1)
    // The schema now wants text where the moment has a number.
    let source = try String(contentsOfFile: page.screen, encoding: .utf8)
    try source.replacingOccurrences(of: "schema = { ticks = \"integer\"", with: "schema = { ticks = \"string\"")
      .write(toFile: page.screen, atomically: true, encoding: .utf8)
    let problem = try #require(page.problem(in: try await page.send(#"{"seq":5,"restore":1}"#)))
    #expect(problem.contains("cannot restore moment #1: the screen refused its state") && problem.contains("ticks"), "\(problem)")
    #expect(page.host.session.screen === screen && screen.state == before.0)
    #expect(screen.pendingList == before.1 && page.host.timeline.moments.map(\.id) == before.2)
  }

  @Test("stepping a running clock, or stepping by a bad amount, is refused and moves nothing; a flood of steps is bounded")
  func badSteps() async throws {
    let page = try Fixture()
    defer { page.close() }
    _ = try await page.send(#"{"seq":1,"verb":"tap","id":"tick"}"#)
    let problem = try #require(page.problem(in: try await page.send(#"{"seq":2,"clock":"step","by":1}"#)))
    #expect(problem.contains("the clock is running: Pause it first"))
    #expect(try #require(page.problem(in: try await page.send(#"{"seq":3,"clock":"next"}"#))).contains("Pause it first"))
    _ = try await page.send(#"{"seq":4,"clock":"pause"}"#)
    for text in [#"{"seq":5,"clock":"step","by":-0.5}"#, #"{"seq":6,"clock":"step","by":1e400}"#, #"{"seq":7,"clock":"step","by":600}"#] {
      let problem = try #require(page.problem(in: try await page.send(text)), "\(text)")
      #expect(problem.contains("bad message from the page"), "\(problem)")
    }
    #expect(page.clock.now == 100 && page.ticks == 0 && page.host.session.screen.pendingEffects == 1)
    // A flood of steps of a millisecond: each one moves the clock exactly that much.
    for seq in 10..<510 { _ = try await page.send(#"{"seq":\#(seq),"clock":"step","by":0.001}"#) }
    #expect(abs(page.clock.now - 100.5) < 1e-6, "\(page.clock.now)")
    #expect(page.ticks == 0)
    // Nothing due: Next says so.
    _ = try await page.send(#"{"seq":600,"clock":"next"}"#)
    #expect(page.ticks == 1)
    let nothing = try #require(page.problem(in: try await page.send(#"{"seq":601,"clock":"next"}"#)))
    #expect(nothing.contains("nothing waits on the screen's clock"))
  }

  @Test("a flood of events keeps at most 200 moments; big states are kept within the byte budget, the newest always")
  func bounds() async throws {
    let page = try Fixture()
    defer { page.close() }
    for seq in 1...260 { _ = try await page.send(#"{"seq":\#(seq),"verb":"tap","id":"search"}"#) }
    #expect(page.host.timeline.moments.count == PreviewTimeline.momentLimit)
    #expect(page.host.timeline.moments.last?.id == 260 && page.host.timeline.moments.first?.id == 61)
    #expect(page.host.log.count <= PreviewHost.logLimit)

    let big = try Fixture(state: ["ticks": 0, "searches": 0, "bursts": 0, "note": .string(String(repeating: "x", count: 1 << 20))])
    defer { big.close() }
    for seq in 1...40 { _ = try await big.send(#"{"seq":\#(seq),"verb":"tap","id":"search"}"#) }
    let kept = big.host.timeline.moments
    #expect(kept.count < 40 && kept.count > 4, "\(kept.count)")
    #expect(big.host.timeline.bytes <= PreviewTimeline.byteBudget)
    #expect(kept.last?.id == 40)
  }

  // MARK: - What it does

  @Test("effects and timers are steps of their own in the log; the Last step is the newest; a past moment comes back whole")
  func timelineAndMoments() async throws {
    let page = try Fixture()
    defer { page.close() }
    _ = try await page.send(#"{"seq":1,"clock":"pause"}"#)
    _ = try await page.send(#"{"seq":2,"verb":"tap","id":"tick"}"#)
    let stepped = try await page.send(#"{"seq":3,"clock":"step","by":1}"#)
    let panel = try #require(stepped.last?["panel"] as? [String: Any])
    let entry = try #require((panel["log"] as? [[String: Any]])?.last)
    #expect(entry["event"] as? String == "effect" && entry["kind"] as? String == "effect")
    #expect(entry["actions"] as? [String] == ["ticked"] && entry["moment"] as? Int == 2 && entry["time"] as? Double == 1)
    #expect(panel["diff"] as? [String] == ["ticks: 0 → 1"])
    #expect((panel["clock"] as? [String: Any])?["paused"] as? Bool == true)
    #expect((panel["clock"] as? [String: Any])?["now"] as? Double == 1)

    let answer = try await page.send(#"{"seq":4,"moment":1}"#)
    let message = try #require(answer.first)
    #expect(message["type"] as? String == "moment" && message["seq"] as? Int == 4)
    let moment = try #require(message["moment"] as? [String: Any])
    #expect(moment["cause"] as? String == "tap tick" && moment["kind"] as? String == "event" && moment["time"] as? Double == 0)
    #expect((moment["state"] as? [String: Any])?["ticks"] as? Int == 0)
    #expect(moment["restorable"] as? Bool == true)
    #expect((moment["text"] as? String)?.contains("label#ticks text=\"0\"") == true, "\(moment["text"] ?? "")")
    let tree = try #require(moment["tree"] as? [String: Any])
    #expect(tree["k"] as? String == "screen" && (tree["f"] as? [Double])?.count == 4)
    // The live screen is where it was: a past moment is only shown.
    #expect(page.ticks == 1)
  }

  @Test("pending effects: a timer, a debounce and a throttle window, each with its id, window and due time; Next reaches each")
  func pending() async throws {
    let page = try Fixture()
    defer { page.close() }
    _ = try await page.send(#"{"seq":1,"clock":"pause"}"#)
    _ = try await page.send(#"{"seq":2,"verb":"tap","id":"tick"}"#)
    _ = try await page.send(#"{"seq":3,"verb":"tap","id":"search"}"#)
    _ = try await page.send(#"{"seq":4,"verb":"tap","id":"burst"}"#)
    let answer = try await page.send(#"{"seq":5,"verb":"tap","id":"burst"}"#)
    let panel = try #require(answer.last?["panel"] as? [String: Any])
    let pending = try #require(panel["pending"] as? [[String: Any]])
    let described = pending.map { entry in
      let window = (entry["window"] as? Double).map { " window \($0), a \(entry["waiting"] as? String ?? "?") waits" }
      let debounce = (entry["debounce"] as? Double).map { " debounce \($0)" }
      return "\(entry["id"] as? String ?? "-") \(entry["kind"] as? String ?? "?") \(entry["effect"] as? String ?? "-") due \(entry["due"] as? Double ?? -1)"
        + (debounce ?? "") + (window ?? "")
    }
    // The first burst runs at once (a timer due now); the second waits for the window it opened.
    #expect(
      described == [
        "bursts timer after due 0.0", "query timer after due 0.5 debounce 0.5", "- timer after due 1.0",
        "bursts throttle - due 2.0 window 2.0, a after waits",
      ],
      "\(described)")
    let list = page.host.session.screen.pendingList
    #expect(list.map(\.kind) == [.timer, .timer, .timer, .throttle])
    #expect(list[3].summary(now: 100, origin: 100) == "throttle window 'bursts' of 2.000 s, a after waits for its end: ends at 2.000 (in 2.000 s)")
    #expect(list[1].summary(now: 100, origin: 100).hasSuffix("'query' after, debounce 0.500 s: due at 0.500 (in 0.500 s)"))
    // Next, four times: each reaches the next due, and its delivery is the newest moment.
    var causes: [String] = []
    for seq in 6...9 {
      _ = try await page.send(#"{"seq":\#(seq),"clock":"next"}"#)
      causes.append(page.host.timeline.last?.cause ?? "")
    }
    #expect(causes == ["effect: burst_done", "effect: searched", "effect: ticked", "effect: burst_done"], "\(causes)")
    #expect(abs(page.clock.now - 102) < 0.0015, "\(page.clock.now)")
    #expect(page.host.session.screen.state["bursts"] == .integer(2))
  }

  @Test("Resume lets real time move the clock again; paused, moveClock leaves it")
  func pauseAndResume() async throws {
    let page = try Fixture()
    defer { page.close() }
    _ = try await page.send(#"{"seq":1,"clock":"pause"}"#)
    page.host.lastTick = ContinuousClock.now - .seconds(0.5)
    await page.host.moveClock()
    #expect(page.clock.now == 100)
    let resumed = try await page.send(#"{"seq":2,"clock":"resume"}"#)
    #expect(((resumed.last?["panel"] as? [String: Any])?["clock"] as? [String: Any])?["paused"] as? Bool == false)
    page.host.lastTick = ContinuousClock.now - .seconds(0.25)
    await page.host.moveClock()
    #expect(page.clock.now > 100.2 && page.clock.now < 101)
  }
}
