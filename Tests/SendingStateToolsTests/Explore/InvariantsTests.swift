import Foundation
import SendingStateLua
import SendingStateTestSupport
import Testing

@testable import SendingStateTools

@Suite("invariants: expressions, and a spec's ss.invariant declarations for explore and run", .serialized)
@MainActor
struct InvariantsTests {
  let fixtures = repoPath("Tests/SendingStateToolsTests/Fixtures/explore")

  func options(spec: String?, events: Int = 3_000) -> Explorer.Options {
    var options = Explorer.Options()
    options.events = events
    options.time = .seconds(600)  // (the event budget ends these runs, on any machine)
    options.spec = spec
    return options
  }

  /// A folder with the undo fixture and `spec` as undo_spec.lua.
  func folder(spec: String) throws -> URL {
    let folder = try temporaryFolder("ss-invariants")
    try String(contentsOfFile: fixtures + "/undo.lua", encoding: .utf8)
      .write(to: folder.appendingPathComponent("undo.lua"), atomically: true, encoding: .utf8)
    try spec.write(to: folder.appendingPathComponent("undo_spec.lua"), atomically: true, encoding: .utf8)
    return folder
  }

  @Test("explore --spec: the spec's ss.invariant finds the planted bug, named where it is declared, shrunk to three events")
  func findsWithSpec() async throws {
    let report = try await Explorer(path: fixtures + "/undo.lua", options: options(spec: fixtures + "/undo_spec.lua")).run()
    let failure = try #require(report.failure)
    #expect(failure.fromSpec)
    // (Named as Lua names places: a long path is cut at its start.)
    #expect(failure.kind.hasPrefix("the count stays positive (") && failure.kind.hasSuffix("/undo_spec.lua:9)"), "\(failure.kind)")
    #expect(failure.events.map(\.description) == ["tap plus", "tap reset", "tap undo"])
    #expect(failure.message.contains("does not hold") && failure.message.contains(#""count":-1"#), "\(failure.message)")
  }

  @Test("an invariant reads the screen's views: one over the label finds the two taps that show 2")
  func readsViews() async throws {
    let folder = try folder(spec: """
      local ss = require "sendingstate"
      ss.invariant(function(_, view) return view.count.text ~= "2" end)
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let failure = try #require(try await Explorer(path: folder.path + "/undo.lua", options: options(spec: folder.path + "/undo_spec.lua")).run().failure)
    #expect(failure.events.map(\.description) == ["tap plus", "tap plus"], "\(failure.events)")
    #expect(failure.kind.hasSuffix("/undo_spec.lua:2"), "\(failure.kind)")
    // A view that is not there is a failure that names it, at the invariant's line.
    try """
      local ss = require "sendingstate"
      ss.invariant("a missing view", function(_, view)
        return view.nothing.text ~= "x"
      end)
      """.write(to: folder.appendingPathComponent("undo_spec.lua"), atomically: true, encoding: .utf8)
    let missing = try #require(try await Explorer(path: folder.path + "/undo.lua", options: options(spec: folder.path + "/undo_spec.lua")).run().failure)
    #expect(missing.events.isEmpty && missing.message.contains("the invariant a missing view"), "\(missing.message)")
    #expect(missing.message.contains("undo_spec.lua:3") && missing.message.contains("nothing"), "\(missing.message)")
  }

  @Test("the command (with --spec) and the test added to the spec replay the failure; both pass once the bug is fixed")
  func replays() async throws {
    let spec = try String(contentsOfFile: fixtures + "/undo_spec.lua", encoding: .utf8)
    let folder = try folder(spec: spec)
    defer { try? FileManager.default.removeItem(at: folder) }
    let explored = try await runCLI(["explore", "undo.lua", "--spec", "undo_spec.lua"], in: folder.path)
    #expect(explored.status == 1 && explored.stdout.contains("FAILED: after tap undo: the invariant the count stays positive (undo_spec.lua:9)"), "\(explored.stdout)\(explored.stderr)")
    let line = try #require(explored.stdout.split(separator: "\n").first { $0.hasPrefix("  sendingstate run ") })
    #expect(line.hasSuffix(" --spec undo_spec.lua") && !line.contains("--invariant"), "\(line)")
    let words = try await shellWords(String(line.dropFirst(2)))
    let replay = try await runCLI(Array(words.dropFirst()), in: folder.path)
    #expect(replay.status == 1 && replay.stderr.contains("the invariant the count stays positive (undo_spec.lua:9) does not hold"), "\(replay.stderr)")
    // The printed test, added to the spec, fails at the step that breaks the invariant.
    let test = try #require(explored.stdout.range(of: "-- Found by `sendingstate explore`").map { String(explored.stdout[$0.lowerBound...]) })
    #expect(test.contains("-- Add this test to undo_spec.lua"))
    try (spec + "\n" + test).write(to: folder.appendingPathComponent("undo_spec.lua"), atomically: true, encoding: .utf8)
    let failing = try await runCLI(["test", "undo_spec.lua"], in: folder.path)
    #expect(failing.status == 1 && failing.stdout.contains("1 passed, 1 failed"), "\(failing.stdout)")
    #expect(failing.stdout.contains("does not hold after screen:tap(\"undo\")"), "\(failing.stdout)")
    // The fix: the command and the spec pass.
    try String(contentsOfFile: fixtures + "/undo.lua", encoding: .utf8)
      .replacingOccurrences(of: "s.count, s.last = 0, s.count", with: "s.count, s.last = 0, -s.count")
      .write(to: folder.appendingPathComponent("undo.lua"), atomically: true, encoding: .utf8)
    #expect(try await runCLI(Array(words.dropFirst()), in: folder.path).status == 0)
    let passing = try await runCLI(["test", "undo_spec.lua"], in: folder.path)
    #expect(passing.status == 0 && passing.stdout.contains("2 passed, 0 failed"), "\(passing.stdout)")
  }

  @Test("a spec that declares none, fails at its top level or opens a screen there is a usage error that says what to write")
  func usage() async throws {
    let folder = try folder(spec: "")
    defer { try? FileManager.default.removeItem(at: folder) }
    let spec = folder.path + "/undo_spec.lua"
    func message(_ text: String) throws -> String {
      try text.write(toFile: spec, atomically: true, encoding: .utf8)
      do {
        _ = try Invariants([], spec: spec, output: { _ in })
        return "(no error)"
      } catch let error as ToolError {
        return error.description
      }
    }
    #expect(try message("describe('x', function() end)").contains("declares no invariant; at its top level, write e.g. ss.invariant("))
    let broken = try message("local ss = require 'sendingstate'\nlocal x = nil\nss.invariant(function() return x.y end)\nx.z = 1\n")
    #expect(broken.contains("undo_spec.lua:4") && broken.contains("only its top level runs"), "\(broken)")
    let opening = try message("local ss = require 'sendingstate'\nlocal screen = ss.open('undo.lua')\n")
    #expect(opening.contains("undo_spec.lua:2") && opening.contains("open screens inside it(...)"), "\(opening)")
    let bad = try message("local ss = require 'sendingstate'\nss.invariant('no function')\n")
    #expect(bad.contains("undo_spec.lua:2") && bad.contains("fn must be a function(state, view)"), "\(bad)")
    // The spec runs sandboxed: no io, no os.execute.
    let sandboxed = try message("local ss = require 'sendingstate'\nio.open('/tmp/ss-pwned', 'w')\n")
    #expect(sandboxed.contains("undo_spec.lua:2"), "\(sandboxed)")
    #expect(!FileManager.default.fileExists(atPath: "/tmp/ss-pwned"))
  }

  @Test("attack: a name cannot forge output lines, nor a spec declare without bound; what it prints goes to the output given")
  func namesAndOutput() async throws {
    let folder = try folder(spec: "")
    defer { try? FileManager.default.removeItem(at: folder) }
    let spec = folder.path + "/undo_spec.lua"
    func refused(_ text: String) throws -> String? {
      try text.write(toFile: spec, atomically: true, encoding: .utf8)
      switch Result(catching: { try Invariants([], spec: spec, output: { _ in }) }) {
      case .success: return nil
      case .failure(let error): return (error as? ToolError)?.description ?? "\(error)"
      }
    }
    let forged = try refused("local ss = require 'sendingstate'\nss.invariant('ok\\nreplay it:\\n  sendingstate run x', function() return true end)\n")
    #expect(forged?.contains("without control characters") == true, "\(forged ?? "accepted")")
    let many = try refused("local ss = require 'sendingstate'\nfor i = 1, 65 do ss.invariant(function() return true end) end\n")
    #expect(many?.contains("at most 64 invariants") == true, "\(many ?? "accepted")")
    // print goes to the output given (the screen's: escaped, on stderr with --format json).
    try """
      local ss = require "sendingstate"
      print("loaded")
      ss.invariant(function() print("checked") return true end)
      """.write(toFile: spec, atomically: true, encoding: .utf8)
    final class Lines: @unchecked Sendable { var lines: [String] = [] }
    let printed = Lines()
    let invariants = try Invariants([], spec: spec, output: { printed.lines.append($0) })
    #expect(invariants.broken(by: ["count": 0]) == nil)
    #expect(printed.lines == ["loaded", "checked"])
    // Past the deadline, no invariant of the spec runs.
    #expect(invariants.broken(by: ["count": 0], until: .now - .seconds(1)) == nil)
    #expect(printed.lines == ["loaded", "checked"])
  }

  @Test("the spec runs in an environment of its own: what it changes there does not reach the host's code")
  func ownEnvironment() async throws {
    let folder = try folder(spec: """
      local ss = require "sendingstate"
      local meta = getmetatable(_ENV)
      if type(meta) == "table" and type(meta.__index) == "table" then meta.__index.ipairs = nil end
      ipairs, tostring, error = nil, nil, nil
      ss.invariant("positive", function(state) return state.count >= 0 end)
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let failure = try #require(try await Explorer(path: folder.path + "/undo.lua", options: options(spec: folder.path + "/undo_spec.lua")).run().failure)
    #expect(failure.kind.hasPrefix("positive (") && failure.events.map(\.description) == ["tap plus", "tap reset", "tap undo"], "\(failure)")
  }

  @Test("an invariant's math.random is seeded: the same seed finds the same failure")
  func seededInvariants() async throws {
    let folder = try folder(spec: """
      local ss = require "sendingstate"
      ss.invariant(function() return math.random(8) ~= 1 end)
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    var options = options(spec: folder.path + "/undo_spec.lua", events: 400)
    options.seed = 7
    let first = try await Explorer(path: folder.path + "/undo.lua", options: options).run()
    let second = try await Explorer(path: folder.path + "/undo.lua", options: options).run()
    #expect(first.failure != nil && first.failure == second.failure && first.events == second.events)
  }

  @Test("sendingstate test: a file's invariants check only the screens that file opens")
  func fileScoped() async throws {
    let folder = try folder(spec: """
      local ss = require "sendingstate"
      ss.invariant("at most one", function(state) return state.count <= 1 end)
      it("breaks it", function()
        local screen = ss.open("undo.lua")
        screen:tap("plus")
        screen:tap("plus")
      end)
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    try """
      local ss = require "sendingstate"
      it("counts past one", function()
        local screen = ss.open("undo.lua")
        screen:tap("plus")
        screen:tap("plus")
        assert.are.equal(2, screen.state.count)
      end)
      """.write(to: folder.appendingPathComponent("other_spec.lua"), atomically: true, encoding: .utf8)
    let result = try await runCLI(["test", "undo_spec.lua", "other_spec.lua"], in: folder.path)
    #expect(result.status == 1 && result.stdout.contains("1 passed, 1 failed"), "\(result.stdout)")
    #expect(result.stdout.contains("undo_spec.lua:6: the invariant at most one (undo_spec.lua:2) does not hold after screen:tap(\"plus\")"), "\(result.stdout)")
  }
}
