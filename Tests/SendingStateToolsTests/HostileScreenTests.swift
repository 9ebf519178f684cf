import Foundation
import SendingStateTestSupport
import Testing

/// Hostile screens against the CLI's memory: whatever a screen shows or how long it keeps
/// making steps, the process's peak resident memory stays within Lua's cap (64 MiB) plus the
/// host's documented fixed allowance (192 MiB).
///
/// Peak memory is the child's `ru_maxrss`, as `/usr/bin/time` reports it (Debian's `time`).
/// A ceiling, not a timing: it holds however loaded the machine is.
extension CLIEndToEndTests {
  @Suite("Hostile screens: peak memory within the Lua cap plus the fixed allowance")
  struct HostileScreenTests {
    /// Lua's memory cap plus the host's fixed allowance, in KiB.
    static let ceiling = (64 + 192) * 1024

    static let fixtures = "Tests/SendingStateToolsTests/Fixtures/hostile/"

    /// Runs the CLI under `/usr/bin/time`; returns what it printed and its peak memory in KiB.
    static func measured(_ arguments: [String], input: String = "") async throws -> (result: RunResult, peak: Int) {
      let time = "/usr/bin/time"
      try #require(FileManager.default.isExecutableFile(atPath: time), "install Debian's `time` package (/usr/bin/time)")
      let report = FileManager.default.temporaryDirectory.appendingPathComponent("ss-peak-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: report) }
      let child = try ChildProcess(
        executable: time, arguments: ["-f", "%M", "-o", report, binaryPath] + arguments, directory: repositoryRoot.path)
      child.send(input)
      let status = await child.wait()
      let text = try String(contentsOfFile: report, encoding: .utf8)
      let peak = try #require(text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }, "\(text)")
      return (RunResult(status: status, stdout: child.output, stderr: child.errors), peak)
    }

    @Test("a 4 MiB string in 60 labels: the text report cuts each value, showing its length")
    func bigLabelsText() async throws {
      let (result, peak) = try await HostileScreenTests.measured(["run", HostileScreenTests.fixtures + "big_labels.lua"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(peak <= HostileScreenTests.ceiling, "peak \(peak) KiB")
      #expect(result.stdout.contains("… (4194305 bytes; cut at 16384)\""))
      #expect(result.stdout.utf8.count < 2 << 20)
    }

    @Test("a 4 MiB string in 60 labels, three steps, --format json: valid JSON, values cut, memory bounded")
    func bigLabelsJSON() async throws {
      let (result, peak) = try await HostileScreenTests.measured([
        "run", HostileScreenTests.fixtures + "big_labels.lua", "--format", "json", "--send", "tap grow", "--send", "tap grow",
        "--send", "tap grow",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(peak <= HostileScreenTests.ceiling, "peak \(peak) KiB")
      let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      #expect((report["steps"] as? [Any])?.count == 3)
      let tree = try #require(report["tree"] as? [String: Any])
      let first = try #require((tree["children"] as? [[String: Any]])?.first)
      #expect((first["text"] as? String)?.hasSuffix("… (4194305 bytes; cut at 16384)") == true)
    }

    @Test("a timer that re-arms itself, run --settle: each step is written as it happens, none kept")
    func rearmingTimerRun() async throws {
      let (result, peak) = try await HostileScreenTests.measured([
        "run", HostileScreenTests.fixtures + "rearming_timer.lua", "--send", "tap start", "--settle", "4",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(peak <= HostileScreenTests.ceiling, "peak \(peak) KiB")
      #expect(result.stdout.components(separatedBy: "> effect: tick").count > 2)
      #expect(result.stderr.contains("still running after waiting 4.0 s"))
    }

    @Test("a timer that re-arms itself, in the REPL: its steps are printed as they happen, none kept")
    func rearmingTimerRepl() async throws {
      let (result, peak) = try await HostileScreenTests.measured(
        ["repl", HostileScreenTests.fixtures + "rearming_timer.lua"], input: "tap start\nquit\n")
      #expect(result.status == 0, "\(result.stderr)")
      #expect(peak <= HostileScreenTests.ceiling, "peak \(peak) KiB")
      #expect(result.stdout.contains("(1 effect(s) still running)"))
    }
  }
}
