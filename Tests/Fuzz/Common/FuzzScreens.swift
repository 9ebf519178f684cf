// Shared by the screen targets: a scratch folder for screens, and what must hold around one
// interaction with a screen.
import Foundation
import SendingStateLua

/// A folder of this process for screens written by the fuzzer, with the shop's unit modules
/// beside them (so `require "units.banner"` resolves as it does for the example).
@MainActor
enum FuzzScratch {
  static let folder: String = {
    let path = NSTemporaryDirectory() + "sendingstate-fuzz-\(getpid())"
    let units = path + "/units"
    do {
      try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
      for name in ["banner.lua", "product.lua"] {
        let source = repositoryRoot + "/examples/shop/units/" + name
        if !FileManager.default.fileExists(atPath: units + "/" + name) {
          try FileManager.default.copyItem(atPath: source, toPath: units + "/" + name)
        }
      }
    } catch {
      fuzzFail("cannot prepare \(path): \(error)")
    }
    atexit {
      try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "sendingstate-fuzz-\(getpid())")
    }
    return path
  }()

  /// The repository (scripts/fuzz.sh runs targets from it; FUZZ_REPO overrides).
  nonisolated static let repositoryRoot = ProcessInfo.processInfo.environment["FUZZ_REPO"] ?? FileManager.default.currentDirectoryPath

  /// The shop's payload, for screens with `ui.sections`.
  static let shopPayload: ServerPayload = {
    do {
      let data = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/examples/shop/payload.json"))
      return try ServerPayload(json: data)
    } catch {
      fuzzFail("cannot read examples/shop/payload.json from \(repositoryRoot) (run from the repository or set FUZZ_REPO): \(error)")
    }
  }()

  /// Writes `source` as the screen file and returns its path.
  static func write(_ source: [UInt8]) -> String {
    let path = folder + "/screen.lua"
    guard FileManager.default.createFile(atPath: path, contents: Data(source)) else { fuzzFail("cannot write \(path)") }
    return path
  }
}

/// What a screen shows and remembers, to compare before and after an event.
@MainActor
struct ScreenSnapshot: Equatable {
  var state: LuaValue
  var tree: String
  /// The actions the log keeps (the newest, bounded), and how many were dispatched in all.
  var log: [LuaValue]
  var count: Int

  init(_ screen: LuaScreen) {
    state = screen.state
    tree = screen.renderTree().text
    log = screen.actionLog
    count = screen.actionCount
  }

  /// Whether this log is `before`'s with `added` appended, as a bounded log keeps it: every
  /// action counted, the kept ones the newest of them, in order (the newest always kept).
  func log(is before: ScreenSnapshot, plus added: [LuaValue]) -> Bool {
    let all = before.log + added
    return count == before.count + added.count && log.count <= all.count && Array(all.suffix(log.count)) == log
      && (added.isEmpty || !log.isEmpty) && log.count <= LuaScreen.actionLogLimit
  }
}

/// Only these errors may come out of a screen: script faults and usage mistakes.
func checkScreenError(_ error: any Error, during what: String) {
  switch error {
  case is ScriptError, is ScreenUsageError: break
  default: fuzzFail("\(what) threw \(type(of: error)): \(error)")
  }
}

/// Records a problem that is worth reporting but should not stop a run (an error message
/// without a position, say): printed once per category, and appended to FUZZ_NOTES if set.
@MainActor
func fuzzNote(_ category: String, _ detail: @autoclosure () -> String) {
  guard !FuzzNotes.seen.contains(category) else { return }
  FuzzNotes.seen.insert(category)
  let line = "FUZZ NOTE [\(category)]: \(detail())"
  fuzzLog(line)
  if let path = ProcessInfo.processInfo.environment["FUZZ_NOTES"], let handle = FileHandle(forWritingAtPath: path) {
    handle.seekToEndOfFile()
    handle.write(Data((line + "\n").utf8))
    handle.closeFile()
  }
}

@MainActor
enum FuzzNotes {
  static var seen: Set<String> = []
}

/// Runs one interaction and checks it committed whole or changed nothing.
///
/// - Parameter singleEvent: whether the interaction is one event (an action performed, a control
///   event sent, a value set); a tap, typing or a gesture can be several UI events, each
///   committed on its own, so a failure may leave the ones before it committed (the log then
///   only grows).
/// - Parameter userChangesView: whether the interaction itself changes a view (a value set,
///   text typed), which a failed event leaves as the user made it.
@MainActor
@discardableResult
func checkEvent(
  _ screen: LuaScreen, _ what: String, singleEvent: Bool, userChangesView: Bool = false, _ body: () throws -> LuaScreen.Step
) -> LuaScreen.Step? {
  let before = ScreenSnapshot(screen)
  do {
    let step = try body()
    let after = ScreenSnapshot(screen)
    fuzzCheck(after.log(is: before, plus: step.actions), "\(what): the action log is not the old log plus the step's actions")
    fuzzCheck(step.after == after.state, "\(what): the step's state is not the screen's state")
    fuzzCheck(step.before == before.state, "\(what): the step's state before is not the screen's state before")
    return step
  } catch {
    checkScreenError(error, during: what)
    if fuzzVerbose { fuzzLog("\(what) failed: \(error)") }
    let after = ScreenSnapshot(screen)
    if singleEvent {
      // A value the user set stays on its control when the event it caused fails.
      let same = userChangesView ? after.state == before.state && after.log == before.log && after.count == before.count : after == before
      fuzzCheck(same, "\(what) failed (\(error)) but changed the screen:\n  before: \(brief(before.state))\n  after:  \(brief(after.state))\n  log \(before.log.count) → \(after.log.count)")
    } else {
      // (Only grows: what was added is the new count's worth at the end.)
      let added = Array(after.log.suffix(max(0, min(after.count - before.count, after.log.count))))
      fuzzCheck(after.count >= before.count && after.log(is: before, plus: added), "\(what) failed and rewrote the action log")
    }
    return nil
  }
}
