import Foundation
import SendingStateLua
import Testing

@testable import SendingStateTools

/// Runs specs in-process and returns the runner and everything it wrote.
@MainActor
func runSpecs(_ paths: [String], configure: (inout SpecOptions) -> Void = { _ in }) async throws -> (
  runner: SpecRunner, output: String, errors: String
) {
  var options = SpecOptions()
  options.paths = paths
  configure(&options)
  var output = ""
  var errors = ""
  let runner = SpecRunner(options: options, output: { output += $0 }, errors: { errors += $0 })
  try await runner.run()
  return (runner, output, errors)
}

/// Kept small: a spec run holds the main actor while it runs, which other suites' effects need;
/// the heavier runs go through the CLI (TestCommandTests).
@Suite("The spec runner (busted and luassert in-process)", .serialized)
@MainActor
struct SpecRunnerTests {
  @Test("machine outputs keep stdout a document: test output goes to stderr, named")
  func machineOutput() async throws {
    let run = try await runSpecs([toolFixture("specs/printing_spec.lua")]) { $0.output = "json" }
    #expect(run.runner.wroteDocument)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    #expect((object["successes"] as? [Any])?.count == 2)
    #expect(run.errors.contains("output of printing › prints from the spec:\nfrom the spec\n"))
    #expect(run.errors.contains("output of printing › prints from a screen:\nfrom the screen\n"))
  }

  @Test("a missing path, a bad .busted task and tags both included and excluded are usage errors")
  func usageErrors() async {
    await #expect(throws: ToolError.usage("no such spec file or folder: 'no/such/spec'")) {
      _ = try await runSpecs(["no/such/spec"])
    }
    await #expect(throws: ToolError.self) { _ = try await runSpecs([repoPath("spec")]) { $0.task = "nope" } }
    await #expect(throws: ToolError.self) { _ = try await runSpecs([repoPath("spec")]) { $0.tags = ["a"]; $0.excludeTags = ["a"] } }
  }

  @Test("options reach busted as its own arguments")
  func bustedArguments() {
    var options = SpecOptions()
    options.paths = ["spec"]
    options.tags = ["fast", "ui"]
    options.filters = ["adds"]
    options.output = "TAP"
    options.shuffle = true
    options.seed = 7
    #expect(
      options.bustedArguments == [
        "--ignore-lua", "--filter=adds", "--tags=fast,ui", "--shuffle", "--seed=7", "--output=TAP", "spec",
      ])
  }
}

@Suite("The test store in specs: obligations at the end of a test", .serialized)
@MainActor
struct SpecTestStoreTests {
  @Test("TCA-10.5 in Lua: unreceived actions and running effects fail the test that owes them, and only that test")
  func obligations() async throws {
    // (A generous per-test time: this runner shares the main actor with the other suites.)
    let run = try await runSpecs([toolFixture("specs/obligations_spec.lua")]) { $0.timeout = 120 }
    let fixture = toolFixture("specs") + "/"
    #expect(run.runner.summaryLine == "2 passed, 2 failed", "\(run.output)")
    #expect(run.output.contains("""
      ✗ obligations › leaves an action from an effect unreceived (error)
            \(fixture)obligations_spec.lua:6: at the end of the test: 1 action(s) from effects were not received (screen:receive them, or screen:skip_received()):
              { type = "tick" }
      """), "\(run.output)")
    #expect(run.output.contains("""
      ✗ obligations › leaves an effect running (error)
            \(fixture)obligations_spec.lua:12: at the end of the test: 1 effect(s) still running (advance the virtual clock, settle, or screen:skip_in_flight())
      """), "\(run.output)")
  }
}

extension SpecRunnerTests {
  /// On the wall clock: a spec that waits for a real timer. Run apart from the parallel suite
  /// (scripts/test.sh skips them, then runs them apart): its CPU-bound tests can hold
  /// every thread of the cooperative pool for a minute on a loaded 2-core machine.
  @Suite("The spec runner on the wall clock")
  @MainActor
  struct RealTime {
    @Test("screen:settle() waits for effects, and fails on effects still pending")
    func settle() async throws {
      let run = try await runSpecs([toolFixture("effects_spec.lua")])
      #expect(run.runner.summaryLine == "2 passed, 0 failed", "\(run.output)")
    }
  }
}
