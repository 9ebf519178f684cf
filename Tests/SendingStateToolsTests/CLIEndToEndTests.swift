import Foundation
import SendingStateTestSupport
import Testing

@Suite("sendingstate, end to end (the built binary)", .serialized)
struct CLIEndToEndTests {
  @Test("run prints the tree; events print event, actions, diff and tree; exit 0")
  func runText() async throws {
    let plain = try await runCLI(["run", "examples/counter/counter.lua"])
    #expect(plain.status == 0)
    #expect(plain.stdout.hasPrefix("stack#root axis=\"vertical\" spacing=8\n  label#title text=\"Product\""))
    let driven = try await runCLI(["run", "examples/counter/counter.lua", "--send", "tap plus", "--send", "tap plus"])
    #expect(driven.status == 0)
    #expect(driven.stdout.contains("> tap plus\n  actions: increment\n  state:\n    count: 1 → 2\n"))
    #expect(driven.stdout.contains("count: 2 → 3"))
  }

  @Test("run --why says why an event did nothing, in text and in JSON; without it, steps stay as they were")
  func runWhy() async throws {
    let events = ["--state", #"{"title":"Tea","count":0}"#, "--send", "tap minus", "--send", "tap count", "--send", "tap plus"]
    let text = try await runCLI(["run", "examples/counter/counter.lua", "--why"] + events)
    #expect(text.status == 0)
    #expect(
      text.stdout.contains(
        "> tap minus\n  actions: (none)\n  why: 'minus' is disabled (enabled = false), so it takes no interaction\n  state: (unchanged)\n"))
    #expect(
      text.stdout.contains(
        "  why: the tap gesture registered on 'count' wants taps=2, touches=1; this one (one tap with one touch) did not meet it\n"))
    #expect(text.stdout.contains("> tap plus\n  actions: increment\n  state:\n"))
    let plain = try await runCLI(["run", "examples/counter/counter.lua"] + events)
    #expect(plain.status == 0 && !plain.stdout.contains("why:"))
    let json = try await runCLI(["run", "examples/counter/counter.lua", "--why", "--format", "json"] + events)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let steps = try #require(object["steps"] as? [[String: Any]])
    #expect(steps.map { ($0["why"] as? [String])?.count } == [1, 1, 0])
    #expect((steps[0]["why"] as? [String])?.first?.hasPrefix("'minus' is disabled") == true)
    // The REPL explains on its own.
    let repl = try await runCLI(["repl", "examples/counter/counter.lua", "--state", #"{"title":"Tea","count":0}"#], input: "tap minus\nquit\n")
    #expect(repl.stdout.contains("why: 'minus' is disabled"))
  }

  @Test("run --format json prints one object with steps, state, tree and warnings")
  func runJSON() async throws {
    let result = try await runCLI([
      "run", "examples/shop/shop.lua", "--data", "examples/shop/payload.json", "--send", "tap matcha.add", "--format", "json",
    ])
    #expect(result.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(Set(object.keys) == ["steps", "state", "tree", "warnings", "pending"])
    #expect((object["state"] as? [String: Any])?["count"] as? Int == 1)
    #expect((object["warnings"] as? [String])?.first?.contains("unknown unit type 'video'") == true)
    #expect(result.stderr.contains("warning: payload section 2, unit 3"))
  }

  @Test("run --data takes an http URL (loopback server)")
  func dataFromURL() async throws {
    let json = try String(contentsOfFile: repoPath("examples/shop/payload.json"), encoding: .utf8)
    let server = try LoopbackHTTPServer(routes: ["/payload.json": json], maxRequests: 2)
    let result = try await runCLI(["run", "examples/shop/shop.lua", "--data", server.url("/payload.json"), "--send", "tap sencha.add"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("label#summary text=\"1 in cart, total 5.80\""))
    let missing = try await runCLI(["run", "examples/shop/shop.lua", "--data", server.url("/nope.json")])
    #expect(missing.status == 2, "\(missing.stderr)")
    #expect(missing.stderr.contains("answered HTTP 404"))
  }

  @Test("exit codes: 1 for a script error with file:line, 2 for usage errors listing ids")
  func exitCodes() async throws {
    let script = try await runCLI(["run", "Tests/SendingStateLuaTests/Fixtures/screens/callback_error.lua", "--send", "tap b"])
    #expect(script.status == 1)
    #expect(script.stderr.contains("callback_error.lua:8: in event 'touchUpInside' on 'b': attempt to index a nil value"))
    let unknown = try await runCLI(["run", "examples/counter/counter.lua", "--send", "tap plu"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("no view with id 'plu' (ids: buttons, count, minus, plus, root, title, version)"))
    #expect(try await runCLI(["run", "examples/counter/counter.lua", "--send", "jump"]).status == 2)
    #expect(try await runCLI(["run", "missing.lua"]).status == 2)
    #expect(try await runCLI(["run", "examples/counter/counter.lua", "--state", "{not json"]).status == 2)
  }

  @Test("run shows each batch of effect results as a step, bounds its wait with --settle and lists what still runs")
  func runEffects() async throws {
    let result = try await runCLI(["run", "spec/screens/ticker.lua", "--send", "tap start", "--send", "tap loop", "--settle", "0.3"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("> tap start\n  actions: start\n  state: (unchanged)\n"))
    #expect(result.stdout.contains("> effect: tick\n  actions: tick\n  state:\n    ticks: 0 → 1\n"))
    #expect(result.stdout.contains("> effect: loop\n"))
    #expect(result.stderr.contains("warning: 1 effect(s) still running after waiting 0.3 s (--settle)"))
  }

  @Test("an effect's error reaches the user: stderr and exit 1, with the traceback under --verbose")
  func runEffectError() async throws {
    let fixture = "Tests/SendingStateToolsTests/Fixtures/specs/effect_error_screen.lua"
    let result = try await runCLI(["run", fixture, "--send", "tap start"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("error: an effect's result failed: \(fixture):11: in handle (action 'tick'): the tick failed"))
    let verbose = try await runCLI(["run", fixture, "--send", "tap start", "--verbose"])
    #expect(verbose.stderr.contains("stack traceback:"), "\(verbose.stderr)")
  }

  @Test("the error that stops a command shows the script's frames of its traceback; --verbose shows the host's too")
  func traceback() async throws {
    let arguments = ["run", "Tests/SendingStateLuaTests/Fixtures/screens/callback_error.lua", "--send", "tap b"]
    let script = try await runCLI(arguments)
    #expect(script.status == 1)
    #expect(script.stderr.contains("stack traceback (script frames; --verbose shows the host's too):\n\t"), "\(script.stderr)")
    #expect(script.stderr.contains("callback_error.lua:8: in "), "\(script.stderr)")
    #expect(!script.stderr.contains("kernel.") && !script.stderr.contains("[C]"), "\(script.stderr)")
    let verbose = try await runCLI(arguments + ["--verbose"])
    #expect(verbose.status == 1)
    #expect(verbose.stderr.contains("stack traceback:\n"), "\(verbose.stderr)")
    #expect(verbose.stderr.contains("kernel.engine:"), "\(verbose.stderr)")
    #expect(verbose.stderr.contains("callback_error.lua:8: in "), "\(verbose.stderr)")
  }

  @Test("--format json: stdout is the report alone, what the script prints goes to stderr")
  func jsonStdoutAlone() async throws {
    let result = try await runCLI(["run", "Tests/SendingStateToolsTests/Fixtures/specs/printing_screen.lua", "--format", "json"])
    #expect(result.status == 0)
    #expect(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) is [String: Any])
    #expect(result.stderr.contains("from the screen"))
    #expect(!result.stdout.contains("from the screen"))
  }

  @Test("folders and odd paths get plain words; bad --state JSON names its line and column")
  func plainWords() async throws {
    let folder = try await runCLI(["run", "examples/counter"])
    #expect(folder.status == 2)
    #expect(folder.stderr == "error: 'examples/counter' is a folder, not a screen script: give a .lua file in it (counter.lua)\n")
    let device = try await runCLI(["run", "/dev/null"])
    #expect(device.status == 2)
    #expect(device.stderr.contains("is not a regular file"))
    let json = try await runCLI(["run", "examples/counter/counter.lua", "--state", "{\"count\": 1,\n \"title\": x}"])
    #expect(json.status == 2)
    #expect(json.stderr.contains("--state: not valid JSON at line 2, column 11"), "\(json.stderr)")
    let short = try await runCLI(["run", "examples/counter/counter.lua", "--state", "{\"count\": 1"])
    #expect(short.stderr.contains("--state: not valid JSON at the end (line 1, column 12): the text ends too early"), "\(short.stderr)")
  }

  @Test("check compiles specs too")
  func checkSpecs() async throws {
    let result = try await runCLI(["check", "Tests/SendingStateToolsTests/Fixtures/specs"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("syntax_error_spec.lua:4: ')' expected (to close '(' at line 3)"))
  }

  @Test("--events reads a file; --state takes JSON or @FILE; --svg and --png draw the screen")
  func eventsStateSVG() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let events = folder.appendingPathComponent("events.txt").path
    try "# two taps\ntap plus\n\ntap plus\n".write(toFile: events, atomically: true, encoding: .utf8)
    let state = folder.appendingPathComponent("state.json").path
    try #"{"title":"Tea","count":10}"#.write(toFile: state, atomically: true, encoding: .utf8)
    let svg = folder.appendingPathComponent("screen.svg").path
    let png = folder.appendingPathComponent("screen.png").path
    let result = try await runCLI([
      "run", "examples/counter/counter.lua", "--events", events, "--state", "@" + state, "--svg", svg, "--png", png,
      "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(#""state":{"count":12,"title":"Tea"}"#))
    #expect(try String(contentsOfFile: svg, encoding: .utf8).contains(">12</text>"))
    #expect(FileManager.default.contents(atPath: png)?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    let inline = try await runCLI(["run", "examples/counter/counter.lua", "--state", #"{"title":"X","count":5}"#])
    #expect(inline.stdout.contains("label#count text=\"5\""))
  }

  @Test("repl works with piped stdin, and exits 1 when a command failed")
  func replPiped() async throws {
    let clean = try await runCLI(["repl", "examples/counter/counter.lua"], input: "tap plus\nstate\nquit\n")
    #expect(clean.status == 0)
    let result = try await runCLI(["repl", "examples/counter/counter.lua"], input: "tap plus\nstate\nactions\ntap nope\nquit\n")
    #expect(result.status == 1)
    #expect(result.stdout.contains("count: 1 → 2"))
    #expect(result.stdout.contains(#"{"count":2,"title":"Product"}"#))
    #expect(result.stdout.contains("1. increment"))
    #expect(result.stderr.contains("no view with id 'nope'"))
  }

  @Test("--watch reloads a rewritten script keeping the state, and survives a broken one")
  func watch() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("counter.lua").path
    let source = try String(contentsOfFile: repoPath("examples/counter/counter.lua"), encoding: .utf8)
    try source.write(toFile: path, atomically: true, encoding: .utf8)

    let child = try startCLI(["run", path, "--send", "tap plus", "--watch"])
    defer { child.terminate() }  // and waited for at the end
    child.closeInput()
    #expect(await child.waitFor { $0.contains("watching") })

    try await Task.sleep(for: .milliseconds(1100))  // file times have 1 s resolution on some file systems
    try source.replacingOccurrences(of: "title = \"-\"", with: "title = \"minus\"")
      .write(toFile: path, atomically: true, encoding: .utf8)
    #expect(await child.waitFor { $0.contains("reloaded") && $0.contains("button#minus title=\"minus\"") })
    #expect(child.output.components(separatedBy: "label#count text=\"2\"").count >= 3)  // state kept

    try await Task.sleep(for: .milliseconds(1100))
    try "return {".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(await child.waitFor(stderr: true) { $0.contains("reload failed, keeping the previous version") })
    #expect(child.isRunning)
    child.terminate()
    await child.wait()
  }

  @Test("test runs the example specs; check works; stubs --out DIR writes DIR/.luarc.json pointing at DIR/types")
  func testCheckStubs() async throws {
    let specs = try await runCLI(["test", "examples"])
    #expect(specs.status == 0, "\(specs.stdout)")
    #expect(specs.stdout.split(separator: "\n").last?.hasSuffix("passed, 0 failed") == true)
    let failing = try await runCLI(["test", "Tests/SendingStateToolsTests/Fixtures/failing_spec.lua"])
    #expect(failing.status == 1)
    #expect(failing.stdout.hasSuffix("2 passed, 1 failed, 1 skipped\n"))
    #expect(try await runCLI(["check", "examples"]).status == 0)
    #expect(try await runCLI(["check", "Tests/SendingStateToolsTests/Fixtures/broken_screen.lua"]).status == 1)
    let folder = try temporaryFolder("ss-stubs")
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try await runCLI(["stubs", "--out", folder.path]).status == 0)
    let written = try String(contentsOf: folder.appendingPathComponent("types/sendingstate.d.lua"), encoding: .utf8)
    #expect(written == (try String(contentsOfFile: repoPath("types/sendingstate.d.lua"), encoding: .utf8)))
    let luarc = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(".luarc.json"))) as? [String: Any]
    let library = try #require((luarc?["workspace.library"] as? [String])?.first)
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(library).appendingPathComponent("sendingstate.d.lua").path))
  }

  @Test("init scaffolds a project that tests, checks and lints clean, and never overwrites")
  func initProject() async throws {
    let folder = try temporaryFolder("ss-init")
    defer { try? FileManager.default.removeItem(at: folder) }
    let project = folder.appendingPathComponent("hello").path
    let created = try await runCLI(["init", project])
    #expect(created.status == 0, "\(created.stderr)")
    for file in ["screen.lua", "spec/screen_spec.lua", ".busted", ".luacheckrc", ".luarc.json", "types/sendingstate.d.lua", "types/screens/screen.d.lua"] {
      #expect(FileManager.default.fileExists(atPath: project + "/" + file), "\(file)")
    }
    let tested = try await runCLI(["test"], in: project)
    #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
    #expect(tested.stdout.hasSuffix("2 passed, 0 failed\n"))
    #expect(try await runCLI(["check", "screen.lua"], in: project).status == 0)
    // The whole folder too, as a newcomer types it: the types (LuaLS definition files) are not scripts.
    let checked = try await runCLI(["check"], in: project)
    #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    let lint = try ChildProcess(executable: "/usr/bin/luacheck", arguments: ["--no-color", "."], directory: project)
    lint.send("")
    #expect(await lint.wait() == 0, "\(lint.output)")
    #expect(lint.output.contains("0 warnings / 0 errors"))
    let again = try await runCLI(["init", project])
    #expect(again.status == 2)
    #expect(again.stderr.contains("already exists; init never overwrites files"))
  }

  @Test("every subcommand's --help shows an example (and the EVENT grammar where events apply)")
  func help() async throws {
    for command in ["run", "test", "check", "repl", "stubs", "init"] {
      let help = try await runCLI([command, "--help"])
      #expect(help.status == 0)
      #expect(help.stdout.contains("Example"), "\(command)")
    }
    for command in ["run", "repl", "test"] {
      #expect(try await runCLI([command, "--help"]).stdout.contains("row LISTID INDEX EVENT"), "\(command)")
    }
  }
}

extension CLIEndToEndTests {
@Suite("sendingstate --help")
struct HelpTests {
  @Test("help text is wrapped once: the overview reads the same at 80 columns as at 300", arguments: ["", "run", "test", "check", "repl", "stubs", "init"])
  func wrappedOnce(command: String) async throws {
    func overview(_ columns: Int) async throws -> String {
      let arguments = (command.isEmpty ? [] : [command]) + ["--help"]
      let result = try await runCLI(arguments, in: repositoryRoot.path, environment: ["COLUMNS": "\(columns)"])
      return String(result.stdout.components(separatedBy: "\nUSAGE:")[0])
    }
    let narrow = try await overview(80)
    let wide = try await overview(300)
    #expect(narrow == wide)
    #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 80 })
  }

  @Test("usage errors exit 2, as documented (argument-parser's own code is 64)")
  func usageExitCode() async throws {
    let unknown = try await runCLI(["run", "examples/counter/counter.lua", "--bogus"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("Unknown option '--bogus'"))
    #expect(try await runCLI(["test", "--timeout", "-1"]).status == 2)
    #expect(try await runCLI(["frobnicate"]).status == 2)
  }

  @Test("--plugin loads a plugin's modules; a broken plugin is a warning and the screen runs; plugins list and check")
  func plugins() async throws {
    // The plugin fixtures belong to the plugins' own tests; the CLI reads them from there.
    let fixtures = "Tests/SendingStatePluginsTests/Fixtures"
    let run = try await runCLI([
      "run", "\(fixtures)/screens/uses_analytics.lua", "--plugin", "\(fixtures)/plugins/analytics",
      "--plugin", "\(fixtures)/plugins/wrong_api", "--grant", "analytics:net,clock", "--send", "tap go",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("label#last text=\"screen.go\""))
    #expect(run.stderr.contains("warning: plugin left out: \(fixtures)/plugins/wrong_api/plugin.lua:4: plugin 'wrong_api': it was written for host API 0.1.0"))
    let list = try await runCLI(["plugins", "list", "--plugin", "\(fixtures)/plugins/analytics", "--plugin", "\(fixtures)/plugins/bad_syntax"])
    #expect(list.stdout.hasPrefix("analytics 1.2.0 — Records the actions a screen handles.\n"))
    #expect(list.stdout.contains("left out: \(fixtures)/plugins/bad_syntax/plugin.lua:4: plugin 'bad_syntax':"))
    let check = try await runCLI(["plugins", "check", "\(fixtures)/plugins/rating", "\(fixtures)/plugins/unknown_capability"])
    #expect(check.status == 1)
    #expect(check.stdout.hasPrefix("rating 0.3.1: ok\n"))
  }

  @Test("shell completion scripts are generated (documented in the top-level help)")
  func completions() async throws {
    let bash = try await runCLI(["--generate-completion-script", "bash"])
    #expect(bash.status == 0)
    #expect(bash.stdout.contains("sendingstate"))
    #expect(try await runCLI(["--help"]).stdout.contains("--generate-completion-script"))
  }
}
}
