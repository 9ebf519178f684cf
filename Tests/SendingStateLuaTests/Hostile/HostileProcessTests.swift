import Foundation
import SendingStateLua
import SendingStateTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The corpus through the `sendingstate` CLI, in child processes: the items that crash or hang
/// a process (they cannot run in the test process), `sendingstate check` over every corpus
/// script, and the reports the CLI prints for the items of the escape class.
@Suite("Hostile corpus: child processes", .serialized)
struct HostileProcessTests {
  /// What a child process did.
  enum Outcome: String, Sendable {
    /// It died of a signal (a crash).
    case crash
    /// It was still running at the bound and was killed (a hang).
    case hang
    /// It exited by itself.
    case exit
  }

  /// A child's end: its outcome, exit status and output.
  struct Ending {
    var outcome: Outcome
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The CLI beside the test bundle (or in `.build/debug`), as `CLIEndToEndTests` finds it.
  static var binary: String {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("sendingstate")
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside.path }
    return HostileCorpus.repositoryRoot.appendingPathComponent(".build/debug/sendingstate").path
  }

  /// How long a child may run: the CLI's default time limit is 1 s per event, so only a hang
  /// (or a crash's core dump) goes past this — with room for a sanitized build on a loaded
  /// machine (the bound is a hang detector, not a timing).
  static let bound: Duration = .seconds(30)

  /// Runs the argument lists, as many at once as the machine has cores (each child's bound
  /// counts from its own start, so a slow machine does not turn a queue into hangs), and
  /// returns their endings in order; a timer kills a child still running at the bound (no
  /// polling, no sleeping).
  static func run(_ argumentLists: [[String]], bound: Duration = bound) async throws -> [Ending] {
    #expect(FileManager.default.isExecutableFile(atPath: binary), "no sendingstate binary at \(binary)")
    let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
    var endings: [Ending] = []
    var next = 0
    while next < argumentLists.count {
      let batch = argumentLists[next..<min(next + width, argumentLists.count)]
      next += batch.count
      endings += try await runTogether(Array(batch), bound: bound)
    }
    return endings
  }

  /// Starts the argument lists at once and waits for all.
  private static func runTogether(_ argumentLists: [[String]], bound: Duration) async throws -> [Ending] {
    var endings: [Ending] = []
    let children = try argumentLists.map {
      try ChildProcess(executable: binary, arguments: $0, directory: HostileCorpus.repositoryRoot.path)
    }
    let killed = children.map { _ in KillFlag() }
    var timers: [DispatchWorkItem] = []
    for (child, flag) in zip(children, killed) {
      child.closeInput()
      let timer = DispatchWorkItem {
        guard child.isRunning else { return }
        flag.set()
        kill(child.pid, SIGKILL)
      }
      timers.append(timer)
      DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(bound.components.seconds)), execute: timer)
    }
    for (index, child) in children.enumerated() {
      let status = await child.wait()
      timers[index].cancel()
      let outcome: Outcome = killed[index].isSet ? .hang : status >= 128 ? .crash : .exit
      endings.append(Ending(outcome: outcome, status: status, stdout: child.output, stderr: child.errors))
    }
    return endings
  }

  /// Whether the timer killed a child.
  final class KillFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
  }

  /// The CLI arguments that replay `item` (`run`, its data or state, its steps as `--send`).
  static func replay(_ item: HostileItem, format: String? = nil) -> [String]? {
    var arguments = ["run", item.form == .screen ? item.path : fixturePath("hostile/\(item.host ?? "")")]
    switch item.form {
    case .payload: arguments += ["--data", item.path]
    case .state: arguments += ["--state", "@" + item.path]
    case .screen: break
    }
    for step in item.setup + item.trigger where step != "load" {
      let verb = HostileRunner.words(step).first ?? ""
      guard ["tap", "send", "set", "type", "gesture", "row"].contains(verb) else { return nil }
      arguments += ["--send", step]
    }
    if let format { arguments += ["--format", format] }
    return arguments
  }

  @Test("the items that take a whole process down still do (known failures)")
  func childProcessItems() async throws {
    let items = HostileCorpus.items.filter { HostileKnownFailures.childProcessOnly[$0.relativePath] != nil }
    let replays = items.map { Self.replay($0) }
    for (item, replay) in zip(items, replays) where replay == nil {
      Issue.record("\(item.relativePath): its steps cannot be replayed by the CLI")
    }
    let runnable = zip(items, replays).compactMap { item, replay in replay.map { (item, $0) } }
    let endings = try await Self.run(runnable.map(\.1))
    for ((item, _), ending) in zip(runnable, endings) {
      let expected = HostileKnownFailures.childProcessOnly[item.relativePath]
      #expect(
        ending.outcome == expected,
        """
        \(item.relativePath): expected a \(expected?.rawValue ?? "?") (a KNOWN FAILURE); the CLI ended with \
        \(ending.outcome.rawValue) \(ending.status) — fixed? Move it out of childProcessOnly so it runs in process. \
        stderr: \(ending.stderr.prefix(400))
        """)
    }
  }

  /// Scripts `sendingstate check` still crashes or hangs on (known failures).
  static let checkerFailures: [String: Outcome] = [:]

  @Test("sendingstate check survives every script of the corpus and reports each load error with file:line")
  func checker() async throws {
    let scripts = try FileManager.default.subpathsOfDirectory(atPath: HostileCorpus.sourceFolder)
      .filter { $0.hasSuffix(".lua") }.sorted()
    #expect(scripts.count >= 60)
    let healthy = scripts.filter { Self.checkerFailures[$0] == nil }
    let known = scripts.filter { Self.checkerFailures[$0] != nil }
    let path = { (relative: String) in (HostileCorpus.sourceFolder as NSString).appendingPathComponent(relative) }
    // One process checks all the healthy scripts (default limits: about a second per load bomb).
    let endings = try await Self.run([["check"] + healthy.map(path)] + known.map { ["check", path($0)] }, bound: .seconds(60))
    let all = endings[0]
    #expect(
      all.outcome == .exit && (all.status == 0 || all.status == 1),
      "check ended with \(all.outcome) \(all.status): \(all.stderr.suffix(2_000))")
    for (relative, ending) in zip(known, endings.dropFirst()) {
      withKnownIssue("KNOWN FAILURE: check \(relative) ends with \(Self.checkerFailures[relative]?.rawValue ?? "?")") {
        #expect(ending.outcome == .exit, "check \(relative) ended with \(ending.outcome) \(ending.status)")
      }
    }
    // Every screen that fails at load is reported by check with its file and line.
    let reported = all.stdout + all.stderr
    var loadErrors = 0
    for item in HostileCorpus.items where item.form == .screen && item.trigger == ["load"] && item.expectsError {
      guard Self.checkerFailures[item.relativePath] == nil, let line = item.line else { continue }
      loadErrors += 1
      let name = (item.relativePath as NSString).lastPathComponent
      #expect(reported.contains("\(name):\(line):"), "check does not report \(item.relativePath):\(line): \(reported.prefix(3_000))")
    }
    #expect(loadErrors >= 5)
  }

  /// The classes whose items are cheap enough to replay through the CLI with its default limits
  /// (the time and memory classes would run to the CLI's 1 s and 64 MiB each).
  static let replayedClasses = ["escape", "reports"]

  @Test("the CLI on the escape and reports classes: errors with file:line on stderr and exit 1, or one JSON report with the declared state")
  func reports() async throws {
    let items = HostileCorpus.items.filter {
      Self.replayedClasses.contains($0.category) && HostileKnownFailures.childProcessOnly[$0.relativePath] == nil
    }
    let runnable = items.compactMap { item in Self.replay(item, format: "json").map { (item, $0) } }
    #expect(runnable.count >= 20)
    let endings = try await Self.run(runnable.map(\.1))
    for ((item, _), ending) in zip(runnable, endings) {
      var problems: [String] = []
      let name = (item.relativePath as NSString).lastPathComponent
      if ending.outcome != .exit { problems.append("the CLI ended with \(ending.outcome) \(ending.status)") }
      for line in (ending.stdout + ending.stderr).split(separator: "\n") where line.hasPrefix("ESCAPED") || line.hasPrefix("FAIL") {
        problems.append("the item reports: \(line.prefix(300))")
      }
      if item.expectsError || (item.expect == "contained" && ending.status == 1) {
        if ending.status != 1 { problems.append("exit status \(ending.status), expected 1: \(ending.stderr.prefix(300))") }
        if let line = item.line, !ending.stderr.contains("\(name):\(line):") {
          problems.append("stderr does not name \(name):\(line): \(ending.stderr.prefix(300))")
        }
        if item.expect == "contained", !ending.stderr.contains("\(name):") {
          problems.append("stderr names no file:line of \(name): \(ending.stderr.prefix(300))")
        }
      } else {
        if ending.status != 0 { problems.append("exit status \(ending.status), expected 0: \(ending.stderr.prefix(300))") }
        let object = try? JSONSerialization.jsonObject(with: Data(ending.stdout.utf8)) as? [String: Any]
        if object == nil { problems.append("stdout is not one JSON object: \(ending.stdout.prefix(300))") }
        if let object, let expected = item.state {
          // Wrapped in an array: JSONSerialization traps on a top-level scalar.
          let canonical = { (value: Any) -> String? in
            (try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
          }
          let state = canonical(object["state"] ?? NSNull())
          let wanted = (try? JSONSerialization.jsonObject(with: Data(expected.utf8), options: [.fragmentsAllowed])).flatMap(canonical)
          if state != wanted { problems.append("the report's state is \(state ?? "nothing"), expected \(wanted ?? "?")") }
        }
      }
      let report = "\(item.relativePath) through the CLI:\n- \(problems.joined(separator: "\n- "))"
      if let known = HostileKnownFailures.inProcess[item.relativePath] {
        // Intermittent here: the CLI runs with its default limits, which may or may not show a
        // known failure; the in-process test is the one that fails loudly once it is fixed.
        withKnownIssue("KNOWN FAILURE \(item.relativePath): \(known)", isIntermittent: true) {
          #expect(problems.isEmpty, "\(report)")
        }
      } else {
        #expect(problems.isEmpty, "\(report)")
      }
    }
  }
}
