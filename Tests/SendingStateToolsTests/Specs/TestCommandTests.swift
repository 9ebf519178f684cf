import Foundation
import SendingStateTestSupport
import Testing

/// Runs `sendingstate` with `arguments` in `directory` (default: the repository root).
func runCLI(_ arguments: [String], in directory: String, environment: [String: String] = [:]) async throws -> RunResult {
  let prefix = environment.map { "\($0.key)=\($0.value)" }.sorted()
  let child = try ChildProcess(
    executable: prefix.isEmpty ? binaryPath : "/usr/bin/env", arguments: prefix.isEmpty ? arguments : prefix + [binaryPath] + arguments,
    directory: directory)
  child.send("")
  let status = await child.wait()
  return RunResult(status: status, stdout: child.output, stderr: child.errors)
}

/// A fresh folder under the temporary directory, removed by the caller.
func temporaryFolder(_ name: String) throws -> URL {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return folder
}

/// Nested in the serialized end-to-end suite: one child process at a time, so the tests that
/// wait for children never hold more than one thread of the shared pool.
extension CLIEndToEndTests {
@Suite("sendingstate test, end to end")
struct TestCommandTests {
  @Test("an error, an endless loop, a screen's budget overrun and an effect's error each fail one test; the rest runs")
  func isolation() async throws {
    // --timeout is well past the screen's own limits (1 s a step at most), so on a loaded machine
    // the screen's overrun still ends its step before the test's time does.
    let result = try await runCLI(["test", "Tests/SendingStateToolsTests/Fixtures/specs/isolation_spec.lua", "--timeout", "3"])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let verdicts = lines.filter { $0.hasPrefix("  ✓") || $0.hasPrefix("  ✗") }
    #expect(
      verdicts == [
        "  ✗ isolation › raises an error (error)", "  ✗ isolation › loops for ever (error)",
        "  ✓ isolation › prints and passes", "  ✗ isolation › overruns a screen's instruction budget (error)",
        "  ✗ isolation › sees an effect's error when settling (error)", "  ✓ isolation › still runs after all that",
      ], "\(result.stdout)")
    let fixture = "Tests/SendingStateToolsTests/Fixtures/specs/"
    #expect(result.stdout.contains("      \(fixture)isolation_spec.lua:6: boom\n"))
    #expect(result.stdout.contains("      \(fixture)isolation_spec.lua:11: timed out after 3 s"))
    // (Which of the screen's two limits ends the loop depends on the machine's speed.)
    let overrun = "\(fixture)isolation_spec.lua:21: \(fixture)loop_screen.lua:8: in handle (action 'spin'): "
    #expect(
      result.stdout.contains(overrun + "instruction budget exceeded") || result.stdout.contains(overrun + "time limit exceeded"),
      "\(result.stdout)")
    #expect(result.stdout.contains("\(fixture)isolation_spec.lua:27: an effect's result failed while settling"))
    #expect(result.stdout.contains("\(fixture)effect_error_screen.lua:11: in handle (action 'tick'): the tick failed"))
    #expect(result.stdout.contains("  ✓ isolation › prints and passes\n    │ hello from the test\n    │ and io.write too\n"))
    #expect(result.stdout.hasSuffix("\n2 passed, 4 failed\n"))
  }

  @Test(
    "--timeout holds in coroutines and in library functions that loop in C: each runaway test fails alone, naming its line and the limit",
    .timeLimit(.minutes(2)))
  func runaways() async throws {
    let fixture = "Tests/SendingStateToolsTests/Fixtures/specs/runaway_spec.lua"
    let result = try await runCLI(["test", fixture, "--timeout", "0.5"])
    #expect(result.status == 1)
    let verdicts = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  ✓") || $0.hasPrefix("  ✗") }.map(String.init)
    #expect(
      verdicts == [
        "  ✗ runaway › loops in a wrapped coroutine (error)", "  ✗ runaway › loops in a resumed coroutine (error)",
        "  ✗ runaway › cannot catch its own timeout (error)", "  ✗ runaway › cannot run a handler once the time is out (error)",
        "  ✗ runaway › moves elements for ever (error)",
        "  ✗ runaway › joins empty strings for ever (error)", "  ✗ runaway › inserts into a table that lies about its length (error)",
        "  ✗ runaway › backtracks in a pattern for ever (error)", "  ✗ runaway › sorts with a comparator that never answers (error)",
        "  ✓ runaway › still runs after all that",
      ], "\(result.stdout)")
    for line in [5, 9, 15, 21, 26, 30, 35, 40, 44] {
      let message = "      \(fixture):\(line): timed out after 0.5 s (a test, hook or block may run at most --timeout seconds)\n"
      #expect(result.stdout.contains(message), "line \(line): \(result.stdout)")
    }
    #expect(!result.stdout.contains("went on"), "\(result.stdout)")
    #expect(result.stdout.hasSuffix("\n1 passed, 9 failed\n"))
  }

  @Test("a __gc finalizer that never ends (Lua runs them with hooks off) is stopped at --timeout, named, and fails the run", .timeLimit(.minutes(1)))
  func finalizers() async throws {
    let fixture = "Tests/SendingStateToolsTests/Fixtures/specs/finalizer_spec.lua"
    let result = try await runCLI(["test", fixture, "--timeout", "0.5"])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("sendingstate test: the __gc finalizer at \(fixture):4 ran past --timeout (0.5 s) and was stopped\n"), "\(result.stderr)")
    #expect(result.stdout.hasSuffix("\n2 passed, 1 failed\n"), "\(result.stdout)")
  }

  @Test("a finalizer that never ends and runs only when the state closes is stopped at --timeout too", .timeLimit(.minutes(1)))
  func finalizerAtClose() async throws {
    let fixture = "Tests/SendingStateToolsTests/Fixtures/specs/finalizer_at_close_spec.lua"
    let result = try await runCLI(["test", fixture, "--timeout", "0.5"])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("sendingstate test: the __gc finalizer at \(fixture):5 ran past --timeout (0.5 s) and was stopped\n"), "\(result.stderr)")
  }

  @Test("the library functions the runner bounds behave as Lua 5.4's own: one file passes under stock busted and under the runner")
  func boundedLibrary() async throws {
    let fixture = "Tests/SendingStateToolsTests/Fixtures/specs/library_spec.lua"
    let ours = try await runCLI(["test", fixture])
    #expect(ours.status == 0, "\(ours.stdout)\(ours.stderr)")
    #expect(ours.stdout.hasSuffix("\n7 passed, 0 failed\n"), "\(ours.stdout)")
    let child = try ChildProcess(
      executable: CLIEndToEndTests.TestCommandTests.busted[0], arguments: [CLIEndToEndTests.TestCommandTests.busted[1], fixture],
      directory: repositoryRoot.path)
    child.send("")
    #expect(await child.wait() == 0, "\(child.output)\(child.errors)")
  }

  @Test(
    "os.exit in a spec is an error at its line and cannot end the run: the run fails, whatever the code, wherever it is called",
    arguments: [
      ("after_failure", ["after_failure_spec.lua:5: os.exit", "after_failure_spec.lua:8: os.exit"], "1 passed, 3 failed"),
      ("teardown", ["teardown_spec.lua:4: os.exit", "teardown_spec.lua:7: os.exit"], "1 passed, 2 failed"),
      // A caught os.exit fails the test that made it when the test returns.
      ("hidden", ["hidden_spec.lua:4: os.exit", "hidden_spec.lua:7: os.exit"], "0 passed, 2 failed"),
    ])
  func exits(spec: String, messages: [String], summary: String) async throws {
    let result = try await runCLI(["test", "Tests/SendingStateToolsTests/Fixtures/specs/exit/\(spec)_spec.lua"])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    for message in messages {
      #expect(result.stdout.contains(message + " is not available in specs"), "\(message): \(result.stdout)")
    }
    #expect(result.stdout.hasSuffix("\n\(summary)\n"), "\(result.stdout)")
  }

  @Test("a screen a spec opens cannot call os.exit either: its handler fails, and so does the run")
  func screenExit() async throws {
    let result = try await runCLI(["test", "Tests/SendingStateToolsTests/Fixtures/specs/exit/screen_spec.lua"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("exit_screen.lua:8: in handle (action 'quit'): sandbox violation: os.exit is not available to scripts"))
    #expect(result.stdout.hasSuffix("\n0 passed, 1 failed\n"))
  }

  @Test("failures name the test, luassert's message and the spec's whole file:line; pending counts as skipped")
  func failures() async throws {
    let result = try await runCLI(["test", "Tests/SendingStateToolsTests/Fixtures/failing_spec.lua"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("  ✗ failing › fails with expected and actual\n"))
    #expect(result.stdout.contains("      Tests/SendingStateToolsTests/Fixtures/failing_spec.lua:15: Expected objects to be the same.\n"))
    #expect(result.stdout.contains("  - failing › later (pending)\n"))
    #expect(result.stdout.hasSuffix("\n2 passed, 1 failed, 1 skipped\n"))
  }

  /// A folder of specs with an error in every place outside a test body: a file that does not
  /// compile, a file whose `require` fails, a describe body, before_each, after_each, setup and
  /// teardown; four tests pass beside them.
  static let errorSites = "Tests/SendingStateToolsTests/Fixtures/spec_errors"

  @Test("an error outside a test body is shown with its file:line under its file, test or block; the other files still run")
  func errorSitesInTheTerminal() async throws {
    let result = try await runCLI(["test", Self.errorSites])
    #expect(result.status == 1)
    let folder = Self.errorSites
    let expected = [
      "\(folder)/a_syntax_spec.lua", "  ✗ loading the spec (error)",
      "      \(folder)/a_syntax_spec.lua:5: ')' expected (to close '(' at line 3) near 'end'",
      "\(folder)/c_blocks_spec.lua",
      "  ✗ a failing describe body (error in describe)", "      \(folder)/c_blocks_spec.lua:4: describe body failed",
      "  ✗ a failing before_each › never runs its body (error in before_each)", "      \(folder)/c_blocks_spec.lua:8: before_each failed",
      "  ✓ a failing after_each › passes its body",
      "  ✗ a failing after_each › passes its body (error in after_each)", "      \(folder)/c_blocks_spec.lua:13: after_each failed",
      "  ✗ a failing setup (error in setup)", "      \(folder)/c_blocks_spec.lua:18: setup failed",
      "  ✓ a failing teardown › passes",
      "  ✗ a failing teardown (error in teardown)", "      \(folder)/c_blocks_spec.lua:23: teardown failed",
      "  ✓ no failure › passes too",
      "\(folder)/d_fine_spec.lua", "  ✓ the last file › runs",
      "\(folder)/e_require_spec.lua", "  ✗ loading the spec (error)",
      "      \(folder)/e_require_spec.lua:2: module 'no_such_module_for_this_spec' not found:",
    ]
    // In this order, each line whole (the file headings too: an error is shown under its own file).
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var at = 0
    for line in expected {
      let found = lines[at...].firstIndex(of: line)
      #expect(found != nil, "missing, or out of order: \(line)\n\(result.stdout)")
      at = (found ?? at) + 1
    }
    #expect(result.stdout.hasSuffix("\n4 passed, 7 failed\n"), "\(result.stdout)")
  }

  @Test("TAP, JUnit and JSON report the same errors as the terminal, and stock busted counts them the same")
  func errorSitesInEveryOutput() async throws {
    // Stock busted 2.1.1 (Lua 5.4), the oracle for the counts: its own terminal output (its TAP
    // handler fails on a file that does not compile; ours does not).
    let stock = try ChildProcess(
      executable: Self.busted[0], arguments: [Self.busted[1], "-o", "utfTerminal", Self.errorSites], directory: repositoryRoot.path)
    stock.send("")
    #expect(await stock.wait() == 1)
    #expect(stock.output.contains("4 successes / 0 failures / 7 errors / 0 pending"), "\(stock.output)")

    let tap = try await runCLI(["test", "-o", "TAP", Self.errorSites])
    #expect(tap.status == 1)
    #expect(!tap.stderr.contains("attempt to"), "\(tap.stderr)")
    let tapLines = tap.stdout.split(separator: "\n").map(String.init)
    #expect(tapLines.filter { $0.hasPrefix("ok ") }.count == 4)
    #expect(tapLines.filter { $0.hasPrefix("not ok ") }.count == 7, "\(tap.stdout)")
    #expect(tapLines.last == "1..11")
    #expect(tapLines.contains("not ok 1 - \(Self.errorSites)/a_syntax_spec.lua"))
    #expect(tapLines.contains("# \(Self.errorSites)/a_syntax_spec.lua @ 5"))

    let junit = try await runCLI(["test", "-o", "junit", Self.errorSites])
    #expect(junit.status == 1)
    let top = try #require(junit.stdout.firstMatch(of: /<testsuites[^>]*>/)).output
    #expect(top.contains("tests='4'") && top.contains("errors='7'") && top.contains("failures='0'"), "\(top)")

    let json = try await runCLI(["test", "-o", "json", Self.errorSites])
    #expect(json.status == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((object["successes"] as? [Any])?.count == 4)
    #expect((object["failures"] as? [Any])?.count == 0)
    let errors = try #require(object["errors"] as? [[String: Any]])
    #expect(errors.count == 7)
    // Each error's message is one stock busted printed too.
    for error in errors {
      let message = try #require(error["message"] as? String)
      let firstLine = String(message.prefix { $0 != "\n" })
      #expect(stock.output.contains(firstLine), "stock busted did not report: \(firstLine)")
    }
    // The machine outputs name each error's place on stderr, the test a hook ran for included.
    #expect(json.stderr.contains("error in before_each of a failing before_each › never runs its body: "), "\(json.stderr)")
    #expect(json.stderr.contains("error in file \(Self.errorSites)/a_syntax_spec.lua: "))
  }

  @Test("what the screens a test opens print is shown under that test")
  func screenOutput() async throws {
    let result = try await runCLI(["test", "Tests/SendingStateToolsTests/Fixtures/specs/printing_spec.lua"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("  ✓ printing › prints from the spec\n    │ from the spec\n"))
    #expect(result.stdout.contains("  ✓ printing › prints from a screen\n    │ from the screen\n"))
  }

  @Test("with no path, test runs what .busted names (spec/ and examples/), never the fixtures under Tests/")
  func discovery() async throws {
    let result = try await runCLI(["test"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("spec/busted_style_spec.lua\n"))
    #expect(result.stdout.contains("spec/screen_driver_spec.lua\n"))
    #expect(result.stdout.contains("examples/counter/counter_spec.lua\n"))
    #expect(!result.stdout.contains("Tests/"))
    let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
    #expect(last.range(of: #"^\d+ passed, 0 failed, 1 skipped$"#, options: .regularExpression) != nil, "\(last)")
  }

  @Test("specs pass from their own folder, and a bare folder without spec/ or .busted is a usage error")
  func anyFolder() async throws {
    for example in ["tasks", "counter", "shop"] {
      let result = try await runCLI(["test", "\(example)_spec.lua"], in: repoPath("examples/\(example)"))
      #expect(result.status == 0, "\(example): \(result.stdout)\(result.stderr)")
    }
    let empty = try temporaryFolder("ss-empty")
    defer { try? FileManager.default.removeItem(at: empty) }
    let none = try await runCLI(["test"], in: empty.path)
    #expect(none.status == 2)
    #expect(none.stderr.contains("no spec/ folder and no .busted file here"))
  }

  @Test("a .busted file names the folders, the output and the tags, as in busted")
  func bustedFile() async throws {
    let folder = try temporaryFolder("ss-busted")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("tests"), withIntermediateDirectories: true)
    try "return { _all = { ROOT = { \"tests\" }, output = \"TAP\" }, quick = { tags = \"quick\" } }\n"
      .write(to: folder.appendingPathComponent(".busted"), atomically: true, encoding: .utf8)
    try """
      describe("m", function()
        it("one #quick", function() end)
        it("two", function() end)
      end)

      """.write(to: folder.appendingPathComponent("tests/m_spec.lua"), atomically: true, encoding: .utf8)
    let all = try await runCLI(["test"], in: folder.path)
    #expect(all.stdout == "ok 1 - m one #quick\nok 2 - m two\n1..2\n", "\(all.stdout)\(all.stderr)")
    #expect(all.stderr == "2 passed, 0 failed\n")
    let quick = try await runCLI(["test", "--run", "quick"], in: folder.path)
    #expect(quick.stdout == "ok 1 - m one #quick\n1..1\n", "\(quick.stdout)\(quick.stderr)")
  }

  @Test("TAP, JUnit and JSON outputs are whole documents on stdout; the closing line goes to stderr")
  func machineOutputs() async throws {
    let tap = try await runCLI(["test", "spec/busted_style_spec.lua", "-o", "TAP"])
    #expect(tap.status == 0)
    #expect(tap.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("ok ") || $0.hasPrefix("1..") || $0.hasPrefix("#") })
    #expect(tap.stderr.hasSuffix("15 passed, 0 failed, 1 skipped\n"))
    let junit = try await runCLI(["test", "spec/busted_style_spec.lua", "--output", "junit"])
    let suites = junit.stdout.split(separator: "\n").first { $0.hasPrefix("<testsuites") }.map(String.init) ?? ""
    for attribute in ["tests='16'", "skip='1'", "errors='0'", "failures='0'"] { #expect(suites.contains(attribute), "\(suites)") }
    let json = try await runCLI(["test", "spec/busted_style_spec.lua", "--output", "json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect((object?["successes"] as? [Any])?.count == 15)
  }

  @Test("snapshots: missing fails and says how to record, --update-snapshots records, a change fails with a diff")
  func snapshots() async throws {
    let folder = try temporaryFolder("ss-snap")
    defer { try? FileManager.default.removeItem(at: folder) }
    let counter = try String(contentsOfFile: repoPath("examples/counter/counter.lua"), encoding: .utf8)
    try counter.write(to: folder.appendingPathComponent("counter.lua"), atomically: true, encoding: .utf8)
    let spec = folder.appendingPathComponent("counter_spec.lua")
    try """
      local ss = require "sendingstate"
      it("looks right", function()
        local screen = ss.open("counter.lua")
        screen:tap("plus")
        assert.tree_matches(screen, "after-plus")
      end)

      """.write(to: spec, atomically: true, encoding: .utf8)
    let missing = try await runCLI(["test", "counter_spec.lua"], in: folder.path)
    #expect(missing.status == 1)
    #expect(missing.stdout.contains("no snapshot 'after-plus' yet"))
    #expect(missing.stdout.contains("--update-snapshots"))
    let recorded = try await runCLI(["test", "counter_spec.lua", "--update-snapshots"], in: folder.path)
    #expect(recorded.status == 0)
    let file = folder.appendingPathComponent("__snapshots__/counter_spec/after-plus.tree")
    #expect(try String(contentsOf: file, encoding: .utf8).contains("label#count text=\"2\"\n"))
    #expect(try await runCLI(["test", "counter_spec.lua"], in: folder.path).status == 0)
    try String(contentsOf: spec, encoding: .utf8).replacingOccurrences(of: "screen:tap(\"plus\")", with: "")
      .write(to: spec, atomically: true, encoding: .utf8)
    let changed = try await runCLI(["test", "counter_spec.lua"], in: folder.path)
    #expect(changed.status == 1)
    #expect(changed.stdout.contains("-   label#count text=\"2\"\n"))
    #expect(changed.stdout.contains("+   label#count text=\"1\"\n"))
    // A bad name is the spec's error, at its line (not luassert's).
    try String(contentsOf: spec, encoding: .utf8).replacingOccurrences(of: #""after-plus""#, with: #""../up""#)
      .write(to: spec, atomically: true, encoding: .utf8)
    let bad = try await runCLI(["test", "counter_spec.lua"], in: folder.path)
    #expect(bad.status == 1 && bad.stdout.contains("counter_spec.lua:5: assert.tree_matches: the snapshot name"), "\(bad.stdout)")
  }

  @Test("picture snapshots through sendingstate test: missing fails, --update-snapshots records, a change fails naming its pictures")
  func pictureSnapshots() async throws {
    let folder = try temporaryFolder("ss-picture")
    defer { try? FileManager.default.removeItem(at: folder) }
    let counter = try String(contentsOfFile: repoPath("examples/counter/counter.lua"), encoding: .utf8)
    try counter.write(to: folder.appendingPathComponent("counter.lua"), atomically: true, encoding: .utf8)
    let spec = folder.appendingPathComponent("counter_spec.lua")
    try """
      local ss = require "sendingstate"
      it("looks right", function()
        local screen = ss.open("counter.lua")
        screen:tap("plus")
        assert.picture_matches(screen, "after-plus")
      end)

      """.write(to: spec, atomically: true, encoding: .utf8)
    let missing = try await runCLI(["test", "counter_spec.lua"], in: folder.path)
    #expect(missing.status == 1)
    #expect(missing.stdout.contains("no picture snapshot yet") && missing.stdout.contains("--update-snapshots"), "\(missing.stdout)")
    let recorded = try await runCLI(["test", "counter_spec.lua", "--update-snapshots"], in: folder.path)
    #expect(recorded.status == 0, "\(recorded.stdout)")
    let file = folder.appendingPathComponent("__snapshots__/counter_spec/after-plus.png")
    let python = try await decodeWithPython(try Data(contentsOf: file))
    #expect(python.width > 100 && python.dark > 0)
    #expect(try await runCLI(["test", "counter_spec.lua"], in: folder.path).status == 0)
    try String(contentsOf: spec, encoding: .utf8).replacingOccurrences(of: "screen:tap(\"plus\")", with: "")
      .write(to: spec, atomically: true, encoding: .utf8)
    let changed = try await runCLI(["test", "counter_spec.lua"], in: folder.path)
    #expect(changed.status == 1)
    #expect(changed.stdout.contains("pixels differ"), "\(changed.stdout)")
    #expect(changed.stdout.contains("after-plus.actual.png") && changed.stdout.contains("after-plus.diff.png"))
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("__snapshots__/counter_spec/after-plus.diff.png").path))
    // A bad tolerance is the spec's error, at its line.
    try String(contentsOf: spec, encoding: .utf8).replacingOccurrences(of: #""after-plus")"#, with: #""after-plus", { tolerance = 2 })"#)
      .write(to: spec, atomically: true, encoding: .utf8)
    let bad = try await runCLI(["test", "counter_spec.lua"], in: folder.path)
    #expect(bad.status == 1 && bad.stdout.contains("counter_spec.lua:5") && bad.stdout.contains("from 0 to 1"), "\(bad.stdout)")
  }

  /// Stock busted 2.1.1 under Lua 5.4: the independent oracle.
  static let busted = ["/usr/bin/lua5.4", "/usr/bin/busted"]

  @Test(
    "the same options give the same TAP as stock busted 2.1.1 on our busted-style suite",
    arguments: [
      [String](), ["--tags=fast"], ["--exclude-tags=fast"], ["--filter=notifications"], ["--filter-out=cart"],
      ["--shuffle", "--seed=7"], ["--sort"], ["--list"],
    ])
  func sameAsBusted(options: [String]) async throws {
    let ours = try await runCLI(["test", "-o", "TAP"] + options + ["spec/busted_style_spec.lua"])
    let child = try ChildProcess(
      executable: CLIEndToEndTests.TestCommandTests.busted[0], arguments: [CLIEndToEndTests.TestCommandTests.busted[1], "-o", "TAP"] + options + ["spec/busted_style_spec.lua"],
      directory: repositoryRoot.path)
    child.send("")
    #expect(await child.wait() == 0, "\(child.errors)")
    #expect(!ours.stdout.isEmpty)
    #expect(ours.stdout == child.output, "\(options)")
  }
}
}
