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

@Suite("The spec runner (busted and luassert in-process)", .serialized)
@MainActor
struct SpecRunnerTests {
  @Test("the example specs pass, each opening its screen beside itself")
  func examples() async throws {
    let run = try await runSpecs([repoPath("examples")])
    #expect(run.runner.summary.failed == 0, "\(run.output)")
    #expect(run.runner.summary.passed >= 16)
    #expect(run.runner.summaryLine == "\(run.runner.summary.passed) passed, 0 failed")
  }

  @Test("failures name the test, luassert's message and the spec's file:line; pending counts as skipped")
  func failures() async throws {
    let run = try await runSpecs([toolFixture("failing_spec.lua")])
    #expect(run.runner.summaryLine == "2 passed, 1 failed, 1 skipped")
    let failure = try #require(run.runner.results.first { $0.status == .failed })
    #expect(failure.name == "failing › fails with expected and actual")
    #expect(failure.message?.contains("failing_spec.lua:15: Expected objects to be the same.") == true)
    #expect(run.output.contains("  ✗ failing › fails with expected and actual\n"))
    #expect(run.output.contains("  - failing › later (pending)\n"))
    #expect(run.output.contains("Tests/SendingStateToolsTests/Fixtures/failing_spec.lua:15: Expected"), "the whole path, not Lua's …tail")
  }

  @Test("machine outputs keep stdout a document: test output goes to stderr, named")
  func machineOutput() async throws {
    let run = try await runSpecs([toolFixture("specs/printing_spec.lua")]) { $0.output = "json" }
    #expect(run.runner.wroteDocument)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    #expect((object["successes"] as? [Any])?.count == 2)
    #expect(run.errors.contains("output of printing › prints from the spec:\nfrom the spec\n"))
    #expect(run.errors.contains("output of printing › prints from a screen:\nfrom the screen\n"))
  }

  @Test("screen:settle() waits for effects, and fails on effects still pending")
  func settle() async throws {
    let run = try await runSpecs([toolFixture("effects_spec.lua")])
    #expect(run.runner.summaryLine == "2 passed, 0 failed", "\(run.output)")
  }

  @Test("a missing path, an unknown output handler and a bad .busted task are usage errors")
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
