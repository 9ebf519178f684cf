import Foundation
import SendingStateTestSupport

/// The repository root.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// A path under the repository root.
func repoPath(_ relative: String) -> String { repositoryRoot.appendingPathComponent(relative).path }

/// A tools fixture.
func toolFixture(_ name: String) -> String { repoPath("Tests/SendingStateToolsTests/Fixtures/\(name)") }

/// The built `sendingstate` binary, beside the test executable (any scratch path), or the one
/// `SENDINGSTATE_TEST_BINARY` names (to run the end-to-end tests against another build, e.g. to
/// see an attack test fail on the code before its fix).
var binaryPath: String {
  if let other = ProcessInfo.processInfo.environment["SENDINGSTATE_TEST_BINARY"], !other.isEmpty { return other }
  let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sendingstate")
  if FileManager.default.isExecutableFile(atPath: beside.path) { return beside.path }
  return repoPath(".build/debug/sendingstate")
}

/// The outcome of running the binary.
struct RunResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// The user's cache folder for the binaries tests start (a preview remembers its URL there), so
/// no test writes to `~/.cache`.
let testCacheHome = FileManager.default.temporaryDirectory.appendingPathComponent("ss-test-cache-\(getpid())").path

/// Starts `sendingstate` with `arguments` in `directory`, its cache folder ``testCacheHome``.
func startCLI(_ arguments: [String], directory: String = repositoryRoot.path) throws -> ChildProcess {
  try ChildProcess(
    executable: "/usr/bin/env", arguments: ["XDG_CACHE_HOME=\(testCacheHome)", binaryPath] + arguments, directory: directory)
}

/// Runs `sendingstate` with `arguments` (from the repository root), feeding `input` to stdin.
func runCLI(_ arguments: [String], input: String? = nil) async throws -> RunResult {
  let child = try startCLI(arguments)
  child.send(input ?? "")
  let status = await child.wait()
  return RunResult(status: status, stdout: child.output, stderr: child.errors)
}
