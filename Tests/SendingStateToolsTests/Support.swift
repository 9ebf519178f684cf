import Foundation

/// The repository root.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// A path under the repository root.
func repoPath(_ relative: String) -> String { repositoryRoot.appendingPathComponent(relative).path }

/// A tools fixture.
func toolFixture(_ name: String) -> String { repoPath("Tests/SendingStateToolsTests/Fixtures/\(name)") }

/// The built `sendingstate` binary, beside the test executable (any scratch path).
var binaryPath: String {
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

/// Runs `sendingstate` with `arguments` (from the repository root), feeding `input` to stdin.
///
/// Both pipes are drained while the process runs, so a child that writes a lot to one of them
/// (a long report, a sanitizer's summary) cannot block.
func runCLI(_ arguments: [String], input: String? = nil) throws -> RunResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: binaryPath)
  process.arguments = arguments
  process.currentDirectoryURL = repositoryRoot
  let out = Pipe()
  let err = Pipe()
  let stdin = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = stdin
  let stdout = PipeCollector(out)
  let stderr = PipeCollector(err)
  try process.run()
  if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
  try stdin.fileHandleForWriting.close()
  process.waitUntilExit()
  return RunResult(status: process.terminationStatus, stdout: stdout.finish(), stderr: stderr.finish())
}
