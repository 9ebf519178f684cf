import Foundation
import SendingStateLua
import SendingStateTestSupport
import Testing

@testable import SendingStateTools

@Suite("explore: random events from what a screen registers, invariants, shrinking, replay", .serialized)
@MainActor
struct ExplorerTests {
  let undo = repoPath("Tests/SendingStateToolsTests/Fixtures/explore/undo.lua")

  func options(seed: UInt64 = 1, events: Int = 3_000, invariants: [String] = ["state.count >= 0"]) -> Explorer.Options {
    var options = Explorer.Options()
    options.seed = seed
    options.events = events
    options.time = .seconds(600)  // (the event budget ends these runs, on any machine)
    options.invariants = invariants
    return options
  }

  @Test("finds the planted bug at a fixed seed and shrinks it to plus, reset, undo (at most one event more)")
  func findsAndShrinks() async throws {
    let report = try await Explorer(path: undo, options: options()).run()
    let failure = try #require(report.failure)
    #expect(failure.kind == "state.count >= 0")
    #expect(failure.events.count <= 4, "\(failure.events)")
    #expect(failure.events.map(\.description) == ["tap plus", "tap reset", "tap undo"])
    #expect(failure.message.contains("does not hold") && failure.message.contains(#""count":-1"#))
    #expect(report.unshrunkLength >= failure.events.count)
  }

  @Test("the same seed finds the same failure after the same events; another seed after others; every sender is reached")
  func deterministic() async throws {
    let a = try await Explorer(path: undo, options: options(seed: 7)).run()
    let b = try await Explorer(path: undo, options: options(seed: 7)).run()
    let c = try await Explorer(path: undo, options: options(seed: 8)).run()
    #expect(a.failure != nil && a.failure == b.failure && a.events == b.events && a.unshrunkLength == b.unshrunkLength)
    #expect(a.events != c.events || a.unshrunkLength != c.unshrunkLength)
    let free = try await Explorer(path: undo, options: options(events: 300, invariants: [])).run()
    #expect(free.failure == nil && free.events == 300)
    #expect(free.sendersReached == free.sendersSeen && free.sendersSeen == 6, "\(free.sendersReached) of \(free.sendersSeen)")
  }

  @Test("the printed command and spec replay the failure; both pass once the bug is fixed")
  func replays() async throws {
    let report = try await Explorer(path: undo, options: options()).run()
    let failure = try #require(report.failure)
    let folder = try temporaryFolder("ss-explore")
    defer { try? FileManager.default.removeItem(at: folder) }
    let screen = folder.appendingPathComponent("undo.lua")
    try String(contentsOfFile: undo, encoding: .utf8).write(to: screen, atomically: true, encoding: .utf8)
    let command = ExploreReproducer.command(for: failure, path: "undo.lua", options: options(), screenArguments: [])
    #expect(command.hasPrefix("sendingstate run undo.lua --virtual-clock --offline --random-seed 1 --settle 5 --send "), "\(command)")
    #expect(command.hasSuffix(" --invariant 'state.count >= 0'"))
    // Run the words as a shell would split them (the command is quoted for sh).
    let words = try await shellWords(command)
    let replay = try await runCLI(Array(words.dropFirst()), in: folder.path)
    #expect(replay.status == 1, "\(replay.stdout)\(replay.stderr)")
    #expect(replay.stderr.contains("the invariant 'state.count >= 0' does not hold"), "\(replay.stderr)")
    let spec = ExploreReproducer.spec(for: failure, screenPath: "undo.lua", options: options(), state: nil)
    try spec.write(to: folder.appendingPathComponent("undo_spec.lua"), atomically: true, encoding: .utf8)
    let failing = try await runCLI(["test", "undo_spec.lua"], in: folder.path)
    #expect(failing.status == 1 && failing.stdout.contains("the invariant 'state.count >= 0' does not hold"), "\(failing.stdout)")
    // The fix (reset keeps the change with its sign): the same replays pass.
    try String(contentsOfFile: undo, encoding: .utf8).replacingOccurrences(of: "s.count, s.last = 0, s.count", with: "s.count, s.last = 0, -s.count")
      .write(to: screen, atomically: true, encoding: .utf8)
    #expect(try await runCLI(Array(words.dropFirst()), in: folder.path).status == 0)
    #expect(try await runCLI(["test", "undo_spec.lua"], in: folder.path).status == 0)
    let fixed = try await Explorer(path: screen.path, options: options(events: 1_000)).run()
    #expect(fixed.failure == nil)
  }

  @Test("a script error is a failure too, named at its line; a bad invariant is a usage error that says what to write")
  func errorsAndUsage() async throws {
    #expect(throws: ToolError.self) { try Explorer(path: undo, options: options(invariants: ["state.count >="])) }
    let failure = try #require(try await Explorer(path: undo, options: options(invariants: ["state.count < 3"])).run().failure)
    #expect(failure.events.map(\.description) == ["tap plus", "tap plus", "tap plus"], "\(failure.events)")
    // The same counter whose handle errors at 2: the error is the failure, with its file:line.
    let folder = try temporaryFolder("ss-explore-error")
    defer { try? FileManager.default.removeItem(at: folder) }
    let broken = folder.appendingPathComponent("broken.lua").path
    try String(contentsOfFile: undo, encoding: .utf8)
      .replacingOccurrences(of: "if action.type == \"plus\" then", with: "if action.type == \"plus\" and s.count >= 2 then error(\"too many\") elseif action.type == \"plus\" then")
      .write(toFile: broken, atomically: true, encoding: .utf8)
    let crash = try #require(try await Explorer(path: broken, options: options(invariants: [])).run().failure)
    #expect(crash.invariant == nil && crash.kind.hasPrefix("error at ") && crash.kind.contains("broken.lua:"), "\(crash.kind)")
    #expect(crash.message.contains("broken.lua:") && crash.message.contains("too many"), "\(crash.message)")
    #expect(crash.events.map(\.description) == ["tap plus", "tap plus", "tap plus"])
  }

  @Test("the examples hold their invariants under exploration", arguments: [
    ("examples/counter/counter.lua", ["state.count >= 0"]),
    ("examples/tasks/tasks.lua", ["#state.tasks >= 0"]),
    ("examples/products/products.lua", []),
    ("examples/search/search.lua", []),
  ])
  func examples(path: String, invariants: [String]) async throws {
    var options = options(events: 200, invariants: invariants)
    options.runLength = 20
    options.screen.fetcher = FakeFetcher([:])  // (every fetch fails at once: no network, no timing)
    let report = try await Explorer(path: repoPath(path), options: options).run()
    #expect(report.failure == nil, "\(report.failure?.message ?? "")")
    #expect(report.sendersReached > 0)
  }

  @Test("the shop with its payload holds under exploration; without it, it offers nothing to reach: a usage error naming --data")
  func screenWithNothingToReach() async throws {
    var options = options(events: 200, invariants: ["state.count >= 0"])
    options.runLength = 20
    options.screen.fetcher = FakeFetcher([:])
    let shop = repoPath("examples/shop/shop.lua")
    do {
      _ = try await Explorer(path: shop, options: options).run()
      Issue.record("a screen with nothing to reach was explored")
    } catch let error as ToolError {
      #expect(error.description.contains("offers nothing a user can reach") && error.description.contains("--data"), "\(error)")
    }
    let payload = try Data(contentsOf: URL(fileURLWithPath: repoPath("examples/shop/payload.json")))
    options.screen.data = try ServerPayload(json: payload)
    let report = try await Explorer(path: shop, options: options).run()
    #expect(report.failure == nil, "\(report.failure?.message ?? "")")
    #expect(report.events == 200 && report.sendersReached > 0)
  }

  @Test("attack: what a screen writes reaches a saved spec only inside strings; a carriage return cannot end its comment")
  func specInjection() {
    let failure = Explorer.Failure(
      events: [.tap("a\"b"), .type("note", "x\ry")],
      message: "script error: boom\rio.open('/tmp/PWNED','w'):write('owned') --\u{85}more", kind: "error at s.lua:1", invariant: nil)
    let spec = ExploreReproducer.spec(for: failure, screenPath: "s.lua", options: Explorer.Options(), state: nil)
    #expect(!spec.unicodeScalars.contains { $0 == "\r" || $0 == "\u{85}" })
    #expect(spec.contains(#"screen:tap("a\"b")"#) && spec.contains(#"screen:type("note", "x\ry")"#), "\(spec)")
    #expect(spec.split(separator: "\n").filter { $0.contains("io.open") }.allSatisfy { $0.hasPrefix("--") })
  }

  @Test("an invariant with a trailing comment replays in the command and the spec; two processes with one seed print the same")
  func commentsAndProcesses() async throws {
    let folder = try temporaryFolder("ss-explore-comment")
    defer { try? FileManager.default.removeItem(at: folder) }
    try String(contentsOfFile: undo, encoding: .utf8).write(to: folder.appendingPathComponent("undo.lua"), atomically: true, encoding: .utf8)
    let arguments = ["explore", "undo.lua", "--invariant", "state.count >= 0 -- never negative", "--seed", "3", "--save-spec", "undo_spec.lua"]
    let first = try await runCLI(arguments, in: folder.path)
    let second = try await runCLI(arguments, in: folder.path)
    #expect(first.status == 1 && first.stdout.contains("FAILED"), "\(first.stdout)\(first.stderr)")
    #expect(first.stdout == second.stdout)
    let spec = try await runCLI(["test", "undo_spec.lua"], in: folder.path)
    #expect(spec.status == 1 && spec.stdout.contains("does not hold"), "\(spec.stdout)")
  }

  @Test("a timer that re-arms itself all the time does not outlive the time budget")
  func timeBudget() async throws {
    let folder = try temporaryFolder("ss-explore-timer")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("busy.lua").path
    try """
      return {
        state = { n = 0 },
        layout = function(ui) return ui.button { id = "go", title = "go" } end,
        configure = function() end,
        events = function(view, on) on(view.go, "touchUpInside", function() return "tick" end) end,
        handle = function(_, store)
          store:update(function(s) s.n = s.n + 1 end)
          store:after(0.00001, "tick")
        end,
      }
      """.write(toFile: path, atomically: true, encoding: .utf8)
    var options = options(events: 1_000_000, invariants: [])
    options.time = .seconds(1)
    options.settle = 0.05
    options.screen.capabilities = .init(timers: true)
    let report = try await Explorer(path: path, options: options).run()
    #expect(report.failure == nil && report.events >= 1 && report.events < 1_000_000)
  }

  @Test("the README's explore output is what the command prints")
  func readmeOutput() async throws {
    let result = try await runCLI(["explore", "Tests/SendingStateToolsTests/Fixtures/explore/undo.lua", "--invariant", "state.count >= 0"])
    #expect(result.status == 1)
    let readme = try String(contentsOfFile: repoPath("README.md"), encoding: .utf8)
    let lines = result.stdout.split(separator: "\n").prefix(8)
    #expect(lines.count == 8)
    for line in lines { #expect(readme.contains(line), "README lacks: \(line)") }
  }

  @Test("run --offline fails every fetch at once, on the virtual clock too")
  func offline() async throws {
    let result = try await runCLI([
      "run", "examples/search/search.lua", "--virtual-clock", "--offline", "--settle", "2", "--send", "type query tea",
    ])
    #expect(result.status == 0)
    #expect(result.stdout.contains("problem: \"\" → \"offline: https://api.example.com/teas?q=tea was not fetched"), "\(result.stdout)")
  }

  @Test("a screen's math.random is seeded from the seed: two processes find the same six, and its command and spec replay it")
  func seededRandom() async throws {
    let folder = try temporaryFolder("ss-explore-dice")
    defer { try? FileManager.default.removeItem(at: folder) }
    let dice = repoPath("Tests/SendingStateToolsTests/Fixtures/explore/dice.lua")
    try String(contentsOfFile: dice, encoding: .utf8).write(to: folder.appendingPathComponent("dice.lua"), atomically: true, encoding: .utf8)
    let arguments = ["explore", "dice.lua", "--invariant", "state.value ~= 6", "--seed", "5", "--save-spec", "dice_spec.lua"]
    let first = try await runCLI(arguments, in: folder.path)
    let second = try await runCLI(arguments, in: folder.path)
    #expect(first.status == 1 && first.stdout == second.stdout, "\(first.stdout)\n---\n\(second.stdout)")
    let line = try #require(first.stdout.split(separator: "\n").first { $0.hasPrefix("  sendingstate run ") })
    #expect(line.contains("--random-seed 5"))
    let words = try await shellWords(String(line.dropFirst(2)))
    let replay = try await runCLI(Array(words.dropFirst()), in: folder.path)
    #expect(replay.status == 1 && replay.stderr.contains("'state.value ~= 6' does not hold"), "\(replay.stderr)")
    let spec = try await runCLI(["test", "dice_spec.lua"], in: folder.path)
    #expect(spec.status == 1 && spec.stdout.contains("does not hold"), "\(spec.stdout)")
  }
}

/// `command` split into words by /bin/sh (the reproducers print commands quoted for it).
func shellWords(_ command: String) async throws -> [String] {
  let child = try ChildProcess(
    executable: "/bin/sh", arguments: ["-c", "for w in \(command); do printf '%s\\0' \"$w\"; done"], directory: "/")
  child.closeInput()
  #expect(await child.wait() == 0)
  return child.output.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
}
