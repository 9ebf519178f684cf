import Foundation
import SendingStateLua
import Testing

/// The hostile corpus: scripts, payloads and start states that attack the host, each with the
/// outcome the host owes (see `Fixtures/hostile/README.md`).
///
/// An item is a file under `Fixtures/hostile/<class>/`. A `.lua` item is a screen and declares
/// itself in `-- key: value` comment lines at its top; a `.json` item is a payload or a start
/// state whose declaration is a sidecar `<name>.expect` file with the same `key: value` lines.
/// The line an error must name is marked in the script with a trailing `--@` (or given as
/// `line: N`, with `host:` naming the file, for JSON items).
struct HostileItem: Sendable, CustomTestStringConvertible, Hashable {
  /// What the item is.
  enum Form: String, Sendable {
    case screen, payload, state
  }

  /// `time/pattern_find.lua`: the class folder and the file name.
  let relativePath: String
  /// The absolute path of the item (in the test bundle's fixtures).
  let path: String
  /// The class (its folder).
  let category: String
  let form: Form
  /// One line saying what the item attacks.
  let summary: String
  /// Steps that must succeed before the trigger.
  let setup: [String]
  /// The steps of the attack (the first that fails gives the error).
  let trigger: [String]
  /// A ``ScriptError/Kind`` raw value, `ok` or `contained`.
  let expect: String
  /// The line the error must name (`nil`: the error is about host input and has no line).
  let line: Int?
  /// The file the error must name (the item, or its host for JSON items).
  let chunk: String?
  /// Text the error message must contain.
  let message: String?
  /// Text the error's context (what the host was running) must contain.
  let context: String?
  /// The exact state after an accepted trigger (JSON).
  let state: String?
  /// Text the render tree must contain after the trigger.
  let texts: [String]
  /// A label whose text must be the state's value of a field, after every step: `label field`.
  let mirror: (label: String, field: String)?
  /// The ordinary event that must work afterwards (`nil`: none).
  let after: String?
  /// The limits it runs with: ``HostileCorpus/baseLimits`` with its `limits:` overrides
  /// (`time=none budget=2000000 memory=8MiB maxViews=200`…).
  let limits: LuaRuntime.Limits
  /// For JSON items: the host screen (relative to `hostile/`).
  let host: String?
  /// Whether an accepted state must reopen the screen as its start state.
  let roundTrip: Bool
  /// The largest number of bytes the item may print during the trigger.
  let outputLimit: Int?

  var testDescription: String { relativePath }

  static func == (lhs: HostileItem, rhs: HostileItem) -> Bool { lhs.relativePath == rhs.relativePath }
  func hash(into hasher: inout Hasher) { hasher.combine(relativePath) }

  /// Whether the trigger is an error the host must report.
  var expectsError: Bool { expect != "ok" && expect != "contained" }

  /// The expected kind, when the item expects an error.
  var expectedKind: ScriptError.Kind? { ScriptError.Kind(rawValue: expect) }

  /// The item under the shape of the default limits: no instruction budget, only the corpus's
  /// 200 ms deadline. What a budget refuses up front must still end: `contained` (an error
  /// naming the item's line — time, memory — or a success), within the runner's bounds.
  func underDeadlineOnly() -> HostileItem {
    var limits = self.limits
    limits.instructionBudget = nil
    limits.timeLimit = HostileCorpus.baseLimits.timeLimit
    return HostileItem(
      relativePath: relativePath, path: path, category: category, form: form, summary: summary, setup: setup,
      trigger: trigger, expect: "contained", line: line, chunk: chunk, message: nil, context: nil, state: nil,
      texts: [], mirror: mirror, after: after, limits: limits, host: host, roundTrip: roundTrip,
      outputLimit: outputLimit)
  }
}

/// Finding and reading the corpus.
enum HostileCorpus {
  /// The classes, each a folder of the corpus (`hosts/` holds the screens JSON items load into).
  static let classes = ["escape", "time", "memory", "depth", "atomicity", "lifetime", "reports"]

  /// The corpus folder in the test bundle.
  static var folder: String { fixturePath("hostile") }

  /// The repository root (for the CLI, which the child-process tests run from there).
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The corpus folder in the repository (what `sendingstate check` is run over).
  static var sourceFolder: String {
    repositoryRoot.appendingPathComponent("Tests/SendingStateLuaTests/Fixtures/hostile").path
  }

  /// Every item, sorted by path.
  static var items: [HostileItem] { catalog.items }

  /// Declarations that could not be read: relative path → why (their items fail).
  static var malformed: [String: String] { catalog.malformed }

  private static let catalog: (items: [HostileItem], malformed: [String: String]) = {
    var found: [HostileItem] = []
    var malformed: [String: String] = [:]
    for category in classes {
      let directory = (folder as NSString).appendingPathComponent(category)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      for name in names.sorted() where name.hasSuffix(".lua") || name.hasSuffix(".json") {
        let path = (directory as NSString).appendingPathComponent(name)
        let (item, problems) = read(path: path, relativePath: "\(category)/\(name)", category: category)
        found.append(item)
        if !problems.isEmpty { malformed[item.relativePath] = problems.joined(separator: "; ") }
      }
    }
    return (found, malformed)
  }()

  private static func read(path: String, relativePath: String, category: String) -> (HostileItem, [String]) {
    let isJSON = path.hasSuffix(".json")
    let declarationPath = isJSON ? String(path.dropLast(5)) + ".expect" : path
    let text = (try? String(contentsOfFile: declarationPath, encoding: .utf8)) ?? ""
    var fields: [(String, String)] = []
    var markedLine: Int?
    for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if !isJSON, rawLine.hasSuffix("--@") { markedLine = markedLine ?? offset + 1 }
      var line = Substring(rawLine)
      if !isJSON {
        guard line.hasPrefix("-- ") else { continue }
        line = line.dropFirst(3)
      }
      guard let colon = line.firstIndex(of: ":") else { continue }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces)
      guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0 == "-" }) else { continue }
      fields.append((key.lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    }
    func all(_ key: String) -> [String] { fields.filter { $0.0 == key }.map(\.1) }
    func one(_ key: String) -> String? { all(key).first }
    var problems: [String] = []
    let expect = one("expect") ?? ""
    if expect != "ok", expect != "contained", ScriptError.Kind(rawValue: expect) == nil {
      problems.append("expect '\(expect)' is not ok, contained or a ScriptError.Kind raw value")
    }
    let form: HostileItem.Form = isJSON ? (one("use") == "state" ? .state : .payload) : .screen
    if isJSON, one("use") != "state", one("use") != "payload" { problems.append("use: must be payload or state") }
    if isJSON, one("host") == nil { problems.append("a JSON item needs host:") }
    var line = markedLine
    if let given = one("line") { line = given == "none" ? nil : Int(given) }
    if ScriptError.Kind(rawValue: expect) != nil, one("line") == nil, markedLine == nil {
      problems.append("an error item needs a --@ marker or line:")
    }
    let trigger = (one("trigger") ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    if trigger.isEmpty { problems.append("no trigger:") }
    if one("hostile") == nil { problems.append("no 'hostile:' summary line") }
    var limits = baseLimits
    // An item that expects a bound other than time (nodes, memory, the budget, a type or
    // sandbox error) must not race the wall clock: on a busy machine 200 ms of wall time can run
    // out before the work bound is reached. Its time limit is only a backstop for a broken host.
    if deterministicKinds.contains(expect) { limits.timeLimit = .seconds(20) }
    // An item the wall clock must stop runs as the default limits do: with no instruction
    // budget, so no count hook; the watch (LuaWatch.c) raises the deadline by a signal.
    if expect == ScriptError.Kind.timeout.rawValue { limits.instructionBudget = nil }
    for word in (one("limits") ?? "").split(separator: " ") {
      let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.count != 2 || !apply(parts[0], parts[1], to: &limits) { problems.append("bad limits word '\(word)'") }
    }
    var mirror: (String, String)?
    if let spec = one("mirror") {
      let parts = spec.split(separator: " ").map(String.init)
      if parts.count == 2 { mirror = (parts[0], parts[1]) } else { problems.append("mirror: needs 'label field'") }
    }
    let host = one("host")
    let chunk: String? =
      if isJSON { one("line") == nil || one("line") == "none" ? nil : host.map { "hostile/\($0)" } } else {
        line == nil ? nil : "hostile/\(relativePath)"
      }
    let after = one("after") ?? "tap ok"
    let item = HostileItem(
      relativePath: relativePath, path: path, category: category, form: form, summary: one("hostile") ?? "",
      setup: all("setup"), trigger: trigger, expect: expect, line: line, chunk: chunk, message: one("message"),
      context: one("context"), state: one("state"), texts: all("text"), mirror: mirror, after: after == "none" ? nil : after, limits: limits,
      host: host, roundTrip: one("roundtrip") != "no", outputLimit: one("output-limit").flatMap { Int($0) })
    return (item, problems)
  }

  /// The outcomes decided by a bound that does not depend on the machine's speed.
  static let deterministicKinds: Set<String> = [
    "too large", "memory", "type mismatch", "runtime", "sandbox violation", "budget exceeded", "stack overflow",
    "syntax",
  ]

  /// The limits every item runs with: tight, so the corpus stays fast.
  static let baseLimits: LuaRuntime.Limits = {
    var limits = LuaRuntime.Limits()
    limits.timeLimit = .milliseconds(200)
    limits.instructionBudget = 20_000_000
    limits.memoryLimit = 16 << 20
    limits.maxStringBytes = 4 << 20
    limits.maxNodes = 100_000
    limits.maxViews = 2_000
    limits.maxRegistrations = 2_000
    limits.maxActionsPerEvent = 200
    limits.maxEffectDelay = .seconds(60)
    limits.fetchTimeout = .seconds(2)
    return limits
  }()

  /// Applies one `limits:` override; false for an unknown key or value.
  private static func apply(_ key: String, _ value: String, to limits: inout LuaRuntime.Limits) -> Bool {
    let number = Int(value.replacingOccurrences(of: "MiB", with: "")).map { value.hasSuffix("MiB") ? $0 << 20 : $0 }
    guard value == "none" || number != nil else { return false }
    switch key {
    case "time": limits.timeLimit = number.map { .milliseconds($0) }
    case "budget": limits.instructionBudget = number
    case "memory": limits.memoryLimit = number
    case "maxStringBytes": limits.maxStringBytes = number
    case "maxViews": limits.maxViews = number ?? limits.maxViews
    case "maxRegistrations": limits.maxRegistrations = number ?? limits.maxRegistrations
    case "maxNodes": limits.maxNodes = number ?? limits.maxNodes
    case "maxDepth": limits.maxDepth = number ?? limits.maxDepth
    case "maxActions": limits.maxActionsPerEvent = number ?? limits.maxActionsPerEvent
    default: return false
    }
    return true
  }
}

/// Collects what a screen prints: the byte count, the lines (up to a cap) and the markers the
/// items print about themselves (`ESCAPED:`, `FAIL:`, `MEMKB n`).
final class HostileOutput: @unchecked Sendable {
  private let lock = NSLock()
  private var kept: [String] = []
  private var keptBytes = 0
  private(set) var totalBytes = 0
  private(set) var maxMemoryKiB = 0.0
  private(set) var alarms: [String] = []

  func write(_ text: String) {
    lock.withLock {
      totalBytes += text.utf8.count + 1
      if text.hasPrefix("ESCAPED") || text.hasPrefix("FAIL") { alarms.append(String(text.prefix(300))) }
      if text.hasPrefix("MEMKB "), let kib = Double(text.dropFirst(6)) { maxMemoryKiB = max(maxMemoryKiB, kib) }
      if keptBytes < 64 << 10 {
        kept.append(String(text.prefix(1_000)))
        keptBytes += min(text.utf8.count, 1_000)
      }
    }
  }

  var lines: [String] { lock.withLock { kept } }

  /// Bytes written so far (read before and after a step).
  var bytes: Int { lock.withLock { totalBytes } }
}
