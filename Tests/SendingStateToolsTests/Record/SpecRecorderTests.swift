import Foundation
import SendingStateLua
import SendingStateTestSupport
import Testing

@testable import SendingStateTools

@Suite("run --record: a session written as a spec that passes at once and fails when the screen changes", .serialized)
@MainActor
struct SpecRecorderTests {
  /// A folder holding copies of `files` (paths from the repository root, by their names).
  func folder(_ files: [String]) throws -> URL {
    let folder = try temporaryFolder("ss-record")
    for file in files {
      try String(contentsOfFile: repoPath(file), encoding: .utf8)
        .write(to: folder.appendingPathComponent((file as NSString).lastPathComponent), atomically: true, encoding: .utf8)
    }
    return folder
  }

  func edit(_ file: URL, _ old: String, _ new: String) throws {
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.contains(old), "\(file.lastPathComponent) lacks \(old)")
    try text.replacingOccurrences(of: old, with: new).write(to: file, atomically: true, encoding: .utf8)
  }

  @Test("the recorded spec asserts every state, passes under sendingstate test, and fails after a deliberate change")
  func counter() async throws {
    let folder = try folder(["examples/counter/counter.lua"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try await runCLI(
      ["run", "counter.lua", "--send", "tap plus", "--send", "tap plus", "--send", "tap minus", "--record", "counter_spec.lua"], in: folder.path)
    #expect(run.status == 0 && run.stderr.contains("recorded 3 event(s) as a spec in counter_spec.lua"), "\(run.stderr)")
    let spec = try String(contentsOf: folder.appendingPathComponent("counter_spec.lua"), encoding: .utf8)
    #expect(spec.contains("sendingstate run counter.lua --send 'tap plus' --send 'tap plus' --send 'tap minus' --record counter_spec.lua"), "\(spec)")
    #expect(spec.contains("  screen:tap(\"minus\")\n  state.count = 2\n  screen:assert_state(state)\n"), "\(spec)")
    let passing = try await runCLI(["test", "counter_spec.lua"], in: folder.path)
    #expect(passing.status == 0 && passing.stdout.contains("1 passed, 0 failed"), "\(passing.stdout)")
    // The deliberate change: plus adds two.
    try edit(folder.appendingPathComponent("counter.lua"), "s.count = s.count + 1", "s.count = s.count + 2")
    let failing = try await runCLI(["test", "counter_spec.lua"], in: folder.path)
    #expect(failing.status == 1 && failing.stdout.contains("0 passed, 1 failed"), "\(failing.stdout)")
    #expect(failing.stdout.contains("counter_spec.lua:13"), "\(failing.stdout)")
  }

  @Test("effects: each action is received with the change its step made, the clock advanced as it was; a loop still running is let go")
  func effects() async throws {
    let folder = try folder(["spec/screens/ticker.lua"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try await runCLI(
      ["run", "ticker.lua", "--send", "tap start", "--send", "tap loop", "--send", "tap start", "--settle", "0.2", "--record", "ticker_spec.lua"],
      in: folder.path)
    #expect(run.status == 0, "\(run.stderr)")
    let spec = try String(contentsOf: folder.appendingPathComponent("ticker_spec.lua"), encoding: .utf8)
    #expect(spec.contains("  screen:advance(0.2)\n  screen:receive(\"tick\", function(s)\n    s.ticks = 1\n  end)\n"), "\(spec)")
    #expect(spec.components(separatedBy: "screen:receive(\"loop\")").count - 1 == 8, "\(spec)")
    #expect(spec.contains("screen:skip_in_flight()  -- (effects still running when the session ended)\n  screen:finish()"), "\(spec)")
    #expect(try await runCLI(["test", "ticker_spec.lua"], in: folder.path).status == 0)
    // A timer that comes later than it did: the spec no longer receives it in time.
    try edit(folder.appendingPathComponent("ticker.lua"), "store:after(0.01, \"tick\")", "store:after(0.5, \"tick\")")
    let late = try await runCLI(["test", "ticker_spec.lua"], in: folder.path)
    #expect(late.status == 1 && late.stdout.contains("no action came from effects"), "\(late.stdout)")
  }

  @Test("changes(): applied by Lua to the state before, they give the state after (sequences grow and shrink, odd keys, subtypes)")
  func changesReplay() throws {
    let runtime = try LuaRuntime()
    let pairs: [(LuaValue, LuaValue)] = [
      (["count": 1, "title": "Tea"], ["count": 2, "title": "Tea"]),
      (["items": ["a", "b", "c"]], ["items": ["a", "c"]]),
      (.table(LuaTable(sequence: ["a", "b", "c"])), .table(LuaTable(sequence: ["a", "x"]))),
      (.table(LuaTable(sequence: ["a"])), .table(LuaTable(sequence: ["a", "b", "c"]))),
      (["n": .integer(2)], ["n": .number(2.0)]),
      (["a b": 1, "end": true, "x\n]]y": "z"], ["a b": 2, "x\n]]y": "w", "new": ["deep": ["er": 1]]]),
      (["gone": "yes", "kept": 1], ["kept": 1]),
    ]
    for (old, new) in pairs {
      let changes = SpecRecorder.changes(from: old, to: new, on: "state")
      let source = "local state = " + LuaSource.literal(old) + "\n" + changes.joined(separator: "\n") + "\nreturn state"
      let result = try runtime.evaluate(source, chunkName: "changes")
      #expect(result.first == new, "\(source)")
      if case .table(let after) = new, case .number = after.fields["n"] {
        #expect(result.first?["n"] == .number(2.0))  // (a float stays a float)
      }
    }
    #expect(SpecRecorder.changes(from: ["a": 1], to: ["a": 1], on: "state").isEmpty)
  }

  @Test("attack: what a client types and a screen stores reaches the spec only inside strings and bracketed keys")
  func injection() async throws {
    let folder = try temporaryFolder("ss-record-attack")
    defer { try? FileManager.default.removeItem(at: folder) }
    try """
      return {
        state = { note = "" },
        layout = function(ui) return ui.textfield { id = "note" } end,
        configure = function() end,
        events = function(view, on)
          on(view.note, "editingChanged", function(_, sender) return { type = "note", text = sender.text } end)
        end,
        handle = function(action, store)
          store:update(function(s) s.note = action.text; s[action.text] = 1 end)
        end,
      }
      """.write(to: folder.appendingPathComponent("notes.lua"), atomically: true, encoding: .utf8)
    // (Quoted for the EVENT grammar: \" is a quote inside double quotes.)
    let evil = "type note \"\\\")\nio.open('pwned','w')--]]\r\""
    let run = try await runCLI(["run", "notes.lua", "--send", evil, "--record", "notes_spec.lua"], in: folder.path)
    #expect(run.status == 0, "\(run.stderr)")
    let spec = try String(contentsOf: folder.appendingPathComponent("notes_spec.lua"), encoding: .utf8)
    #expect(!spec.unicodeScalars.contains("\r"))
    #expect(spec.split(separator: "\n").allSatisfy { !$0.hasPrefix("io.open") }, "\(spec)")
    let test = try await runCLI(["test", "notes_spec.lua"], in: folder.path)
    #expect(test.status == 0 && test.stdout.contains("1 passed"), "\(test.stdout)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("pwned").path))
  }

  @Test("a session past the byte budget stops recording and says so; the spec up to there still passes")
  func budget() async throws {
    let folder = try temporaryFolder("ss-record-big")
    defer { try? FileManager.default.removeItem(at: folder) }
    try """
      return {
        state = { n = 0, text = "" },
        layout = function(ui) return ui.button { id = "grow", title = "grow" } end,
        configure = function() end,
        events = function(view, on) on(view.grow, "touchUpInside", function() return "grow" end) end,
        handle = function(_, store)
          store:update(function(s) s.n = s.n + 1; s.text = string.rep(tostring(s.n), 3 << 20) end)
        end,
      }
      """.write(to: folder.appendingPathComponent("big.lua"), atomically: true, encoding: .utf8)
    let run = try await runCLI(
      ["run", "big.lua", "--format", "json", "--send", "tap grow", "--send", "tap grow", "--send", "tap grow", "--send", "tap grow", "--record", "big_spec.lua"],
      in: folder.path)
    #expect(run.status == 0 && run.stderr.contains("recording stopped: the spec passed 8 MiB"), "\(run.stderr)")
    let spec = try String(contentsOf: folder.appendingPathComponent("big_spec.lua"), encoding: .utf8)
    #expect(spec.utf8.count <= SpecRecorder.maxBytes + 4_096)
    #expect(spec.contains("-- The recording stopped here: the spec passed 8 MiB."))
    let test = try await runCLI(["test", "big_spec.lua"], in: folder.path)
    #expect(test.status == 0 && test.stdout.contains("1 passed"), "\(test.stdout)")
  }

  @Test("the README's two record commands work in a project: the spec is written and passes")
  func readmeCommands() async throws {
    let readme = try String(contentsOfFile: repoPath("README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "### Record a session as a spec").map { readme[$0.upperBound...] })
    let block = try #require(section.range(of: "```sh\n").flatMap { start in
      section[start.upperBound...].range(of: "```").map { section[start.upperBound..<$0.lowerBound] }
    })
    let commands = block.split(separator: "\n").map(String.init)
    #expect(commands.count == 2)
    let project = try temporaryFolder("ss-record-readme")
    defer { try? FileManager.default.removeItem(at: project) }
    try FileManager.default.createDirectory(at: project.appendingPathComponent("examples/counter"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: project.appendingPathComponent("spec"), withIntermediateDirectories: true)
    try "return {}\n".write(to: project.appendingPathComponent(".busted"), atomically: true, encoding: .utf8)
    try String(contentsOfFile: repoPath("examples/counter/counter.lua"), encoding: .utf8)
      .write(to: project.appendingPathComponent("examples/counter/counter.lua"), atomically: true, encoding: .utf8)
    for command in commands {
      let words = try await shellWords(command)
      #expect(words.first == "scripts/sendingstate")
      let result = try await runCLI(Array(words.dropFirst()), in: project.path)
      #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
      if words.contains("test") { #expect(result.stdout.contains("1 passed, 0 failed"), "\(result.stdout)") }
    }
  }

  @Test("numbers keep their subtype: a screen that starts writing 2.0 where it wrote 2 fails the spec")
  func subtypes() async throws {
    let folder = try temporaryFolder("ss-record-subtype")
    defer { try? FileManager.default.removeItem(at: folder) }
    let screen = folder.appendingPathComponent("double.lua")
    try """
      return {
        state = { n = 1, low = 0 },
        layout = function(ui) return ui.button { id = "double", title = "x2" } end,
        configure = function() end,
        events = function(view, on) on(view.double, "touchUpInside", function() return "double" end) end,
        handle = function(_, store) store:update(function(s) s.n = s.n * 2; s.low = math.mininteger end) end,
      }
      """.write(to: screen, atomically: true, encoding: .utf8)
    #expect(try await runCLI(["run", "double.lua", "--send", "tap double", "--record", "double_spec.lua"], in: folder.path).status == 0)
    let spec = try String(contentsOf: folder.appendingPathComponent("double_spec.lua"), encoding: .utf8)
    #expect(spec.contains("state.low = math.mininteger"), "\(spec)")
    #expect(try await runCLI(["test", "double_spec.lua"], in: folder.path).status == 0)
    try edit(screen, "s.n = s.n * 2", "s.n = s.n * 2.0")
    let failing = try await runCLI(["test", "double_spec.lua"], in: folder.path)
    #expect(failing.status == 1 && failing.stdout.contains("state.n = 2.0"), "\(failing.stdout)")
  }

  @Test("a failing event is recorded as an expected error, and the spec is written up to it")
  func failingEvent() async throws {
    let folder = try folder(["examples/counter/counter.lua"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try await runCLI(["run", "counter.lua", "--send", "tap plus", "--send", "tap nothing", "--record", "c_spec.lua"], in: folder.path)
    #expect(run.status != 0 && run.stderr.contains("recorded 2 event(s)"), "\(run.stderr)")
    let spec = try String(contentsOf: folder.appendingPathComponent("c_spec.lua"), encoding: .utf8)
    #expect(spec.contains("  assert.has_error(function() screen:tap(\"nothing\") end)\n"), "\(spec)")
    #expect(try await runCLI(["test", "c_spec.lua"], in: folder.path).status == 0)
  }

  @Test("paths are written from the spec's folder; --root, --grant and a URL payload are refused; no file but a recording is overwritten")
  func pathsAndTargets() async throws {
    let project = try temporaryFolder("ss-record-paths")
    defer { try? FileManager.default.removeItem(at: project) }
    let screens = project.appendingPathComponent("screens")
    try FileManager.default.createDirectory(at: screens, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: project.appendingPathComponent("spec"), withIntermediateDirectories: true)
    try "return {}\n".write(to: project.appendingPathComponent(".busted"), atomically: true, encoding: .utf8)
    try String(contentsOfFile: repoPath("examples/counter/counter.lua"), encoding: .utf8)
      .write(to: screens.appendingPathComponent("counter.lua"), atomically: true, encoding: .utf8)
    let run = try await runCLI(["run", "counter.lua", "--send", "tap plus", "--record", "../spec/c_spec.lua"], in: screens.path)
    #expect(run.status == 0, "\(run.stderr)")
    let spec = try String(contentsOf: project.appendingPathComponent("spec/c_spec.lua"), encoding: .utf8)
    #expect(spec.contains("ss.open(\"../screens/counter.lua\""), "\(spec)")
    #expect(try await runCLI(["test", "spec/c_spec.lua"], in: project.path).status == 0)
    // A recording is overwritten; the screen itself, or a file a recording did not write, is not.
    #expect(try await runCLI(["run", "counter.lua", "--send", "tap minus", "--record", "../spec/c_spec.lua"], in: screens.path).status == 0)
    let own = try await runCLI(["run", "counter.lua", "--record", "counter.lua"], in: screens.path)
    #expect(own.status != 0 && own.stderr.contains("would overwrite the session's own counter.lua"), "\(own.stderr)")
    try "-- my notes\n".write(to: project.appendingPathComponent("spec/notes_spec.lua"), atomically: true, encoding: .utf8)
    let other = try await runCLI(["run", "counter.lua", "--record", "../spec/notes_spec.lua"], in: screens.path)
    #expect(other.status != 0 && other.stderr.contains("exists and was not written by --record"), "\(other.stderr)")
    #expect(try String(contentsOf: project.appendingPathComponent("spec/notes_spec.lua"), encoding: .utf8) == "-- my notes\n")
    for (flags, message) in [
      (["--root", "."], "--record cannot carry --root"), (["--grant", "screen:clock"], "--record cannot carry --grant"),
      (["--data", "https://example.com/p.json"], "--record needs --data as a file"),
    ] {
      let refused = try await runCLI(["run", "counter.lua", "--record", "x_spec.lua"] + flags, in: screens.path)
      #expect(refused.status != 0 && refused.stderr.contains(message), "\(flags): \(refused.stderr)")
    }
  }

  @Test("attack: keys ending in a line break and two Unicode forms of one text are recorded as they are")
  func keysAndForms() throws {
    let runtime = try LuaRuntime()
    for key in ["abc\n", "end\n", "a\r\n", "x\u{2028}"] {
      #expect(LuaSource.key(key).hasPrefix("["), "\(key)")
      let source = "local t = {}\nt\(LuaSource.key(key)) = 1\nreturn t"
      let result = try runtime.evaluate(source, chunkName: "keys")
      #expect(result.first?.tableValue?.fields.keys.map { Array($0.utf8) } == [Array(key.utf8)])
    }
    let composed: LuaValue = ["name": "\u{E9}"]
    let decomposed: LuaValue = ["name": "e\u{301}"]
    #expect(composed == decomposed)  // (Swift's ==: why the recorder compares bytes)
    #expect(SpecRecorder.changes(from: composed, to: decomposed, on: "state") == ["state.name = \"e\u{301}\""])
    #expect(LuaSource.literal(.integer(.min)) == "math.mininteger")
  }

  @Test("a budget too small for one step stops before it: the spec stays a whole program and passes")
  func atomicUnits() async throws {
    let folder = try folder(["spec/screens/ticker.lua"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let screen = try LuaScreen(path: folder.path + "/ticker.lua", options: {
      var options = LuaScreen.Options()
      options.clock = VirtualClock()
      options.randomSeed = 1
      return options
    }())
    defer { screen.close() }
    let recorder = SpecRecorder(screen: screen, opening: .init(screen: "ticker.lua", randomSeed: 1), maxBytes: 1_200)
    for _ in 0..<20 {
      recorder.willApply()
      _ = try EventCommand.tap("start").apply(to: screen)
      recorder.applied(.tap("start"), to: screen)
      try await screen.advance(by: 1)
      recorder.advanced(by: 1, screen: screen)
    }
    #expect(recorder.stopped == "the spec passed 1 KiB")
    let spec = recorder.spec(pending: screen.pendingEffects)
    #expect(spec.utf8.count < 1_200 + 200 && spec.contains("-- The recording stopped here"))
    try spec.write(to: folder.appendingPathComponent("ticker_spec.lua"), atomically: true, encoding: .utf8)
    let test = try await runCLI(["test", "ticker_spec.lua"], in: folder.path)
    #expect(test.status == 0, "\(test.stdout)\(spec)")
  }

  @Test("an offline fetch's failure is received where it came: before the next event, after an advance (even of 0)")
  func fetches() async throws {
    let folder = try folder(["spec/screens/fetching.lua"])
    defer { try? FileManager.default.removeItem(at: folder) }
    for settle in ["0", "1"] {
      let run = try await runCLI(
        ["run", "fetching.lua", "--settle", settle, "--send", "tap load", "--send", "type query tea", "--record", "f_spec.lua"], in: folder.path)
      #expect(run.status == 0, "\(run.stderr)")
      let spec = try String(contentsOf: folder.appendingPathComponent("f_spec.lua"), encoding: .utf8)
      #expect(spec.contains("  screen:advance(\(settle))\n  screen:receive({ error = \"offline: https://api.example.com/items was not fetched"), "\(spec)")
      let test = try await runCLI(["test", "f_spec.lua"], in: folder.path)
      #expect(test.status == 0 && test.stdout.contains("1 passed"), "settle \(settle): \(test.stdout)\n\(spec)")
    }
  }

  @Test("--record cannot be combined with --watch")
  func watchRefused() async throws {
    let result = try await runCLI(["run", "examples/counter/counter.lua", "--watch", "--record", "/tmp/never_spec.lua"])
    #expect(result.status != 0 && result.stderr.contains("--record cannot be combined with --watch"), "\(result.stderr)")
  }
}
