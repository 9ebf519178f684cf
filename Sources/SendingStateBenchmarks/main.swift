// Benchmarks of the Lua host, release builds only: `scripts/bench.sh`.
//
// Every case runs in this one process, interleaved over several rounds; the table gives each
// case's median and spread (min–max of the rounds' medians) and the ratios the targets are
// about, computed from medians of the same run (absolute numbers vary ±20–30 % on a shared
// 2-core machine; ratios hold). Floors are "the same work in plain Lua", looped inside Lua
// with no crossing per iteration. Allocation counts come from ordo-one's malloc interposer
// when scripts/bench.sh preloads it.
//
// Usage: SendingStateBenchmarks [--quick] [--only CASE --iterations N [--profile-lua]] [--hello PATH --cli PATH]
import Foundation
import MallocInterposerSwift
import SendingState
import SendingStateHeadless
import SendingStateLua

#if canImport(Glibc)
  import Glibc
#endif

// MARK: - Arguments

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
  arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let quick = arguments.contains("--quick")
let only = option("--only")
let onlyIterations = option("--iterations").flatMap(Int.init)

// MARK: - Measuring

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func nanoseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

/// Runs `body` `iterations` times; returns ns per iteration.
@MainActor
func measure(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  for _ in 0..<iterations { try body() }
  return nanoseconds(clock.now - start) / Double(iterations)
}

/// Allocations per iteration of `body`, if the interposer is loaded (`nil` otherwise).
@MainActor
func allocations(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double? {
  MallocInterposerSwift.initialize()
  MallocInterposerSwift.hook()
  try body()  // one warm call: first-time caches are not per-event costs
  MallocInterposerSwift.unhook()
  MallocInterposerSwift.initialize()
  MallocInterposerSwift.hook()
  for _ in 0..<iterations { try body() }
  MallocInterposerSwift.unhook()
  let count = MallocInterposerSwift.getStatistics().mallocCount
  return count == 0 && iterations > 0 ? nil : Double(count) / Double(iterations)
}

/// One benchmark case: `run(n)` does n iterations and returns ns per iteration.
@MainActor
struct Case {
  let group: String
  let name: String
  let iterations: Int
  let run: (Int) throws -> Double
}

// MARK: - Fixtures

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sendingstate-bench-\(getpid())")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

func writeScreen(_ name: String, _ source: String) throws -> String {
  let path = scratch.appendingPathComponent(name).path
  try source.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// A benchmark's Lua file (Sources/SendingStateBenchmarks/Lua, built in by SwiftPM).
func benchLua(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// A 3-field model on 3 labels: the configure of B1.
let threeFieldScreen = try writeScreen("three.lua", benchLua(PackageResources.three_fields_lua))

/// A list of `rows` items: B4.
func listScreen(_ rows: Int) throws -> String {
  let source = benchLua(PackageResources.list_lua)
  precondition(source.contains("local rows = 10000\n"))
  return try writeScreen(
    "list\(rows).lua", source.replacingOccurrences(of: "local rows = 10000\n", with: "local rows = \(rows)\n"))
}

struct Product: Codable, LuaTableRepresentable {
  var title: String
  var count: Int
  var price: Double
  static let luaPlan = LuaTablePlan<Product> {
    LuaField("title", \.title)
    LuaField("count", \.count)
    LuaField("price", \.price)
  }
}

struct TenFields: Codable, LuaTableRepresentable {
  var f1 = "one", f2 = 2, f3 = 3.5, f4 = true, f5 = "five", f6 = 6, f7 = 7.5, f8 = false, f9 = "nine", f10 = 10
  static let luaPlan = LuaTablePlan<TenFields> {
    LuaField("f1", \.f1)
    LuaField("f2", \.f2)
    LuaField("f3", \.f3)
    LuaField("f4", \.f4)
    LuaField("f5", \.f5)
    LuaField("f6", \.f6)
    LuaField("f7", \.f7)
    LuaField("f8", \.f8)
    LuaField("f9", \.f9)
    LuaField("f10", \.f10)
  }
}

/// A card whose configure is a Lua script (Swift-driven LuaConfigurer, B1).
@MainActor
final class Card: StackView {
  let title = Label(id: "title")
  let count = Label(id: "count")
  let price = Label(id: "price")
  init() {
    super.init(id: "card")
    [title, count, price].forEach(addSubview)
  }
}

/// The native core: a Swift configurer and a Swift handler (B6).
@MainActor
final class NativeCounter: StackView, Configurable, EventForwardingProvider {
  let count = Label(id: "count")
  let plus = Button(id: "plus", title: "+")
  init() {
    super.init(id: "counter")
    [count, plus].forEach(addSubview)
  }
  var configurer: (NativeCounter, Int) -> Void { { view, value in view.count.text = String(value) } }
  var eventForwarder: any EventForwardable {
    EventForwarder(plus) { _, ctx in ctx.control(.touchUpInside) { ["increment"] } }
  }
}

@MainActor
final class NativeHandler: @MainActor ActionHandlingProvider {
  weak var view: NativeCounter?
  func handle(action: String) {
    view?.ss.invalidateState { (count: Int) in count + 1 }
  }
}

// MARK: - Cases

@MainActor
func makeCases() throws -> [Case] {
  var cases: [Case] = []
  let unlimited = LuaRuntime.Limits.unlimited
  let runtime = try LuaRuntime(configuration: .init(limits: unlimited))

  /// A plain-Lua floor: `source` returns function(n) that does the work n times (in `runtime`).
  func floor(_ source: String, in runtime: LuaRuntime = runtime) throws -> (Int) throws -> Double {
    let function = try runtime.callReturningReferences(try runtime.load(source, chunkName: "=floor"), with: [], context: nil)[0]
    return { n in
      let clock = ContinuousClock()
      let start = clock.now
      try runtime.call(function, with: [.integer(Int64(n))])
      return nanoseconds(clock.now - start) / Double(n)
    }
  }

  // B1: configure a 3-field model.
  let b1Floor = try floor(benchLua(PackageResources.configure_floor_lua))
  cases.append(Case(group: "B1", name: "configure 3 fields, plain Lua (floor)", iterations: 200_000, run: b1Floor))
  let b1UpdateFloor = try floor(benchLua(PackageResources.update_configure_floor_lua))
  cases.append(Case(group: "B1", name: "update + configure 3 fields, plain Lua (floor)", iterations: 200_000, run: b1UpdateFloor))
  let three = try LuaScreen(path: threeFieldScreen, options: .init(limits: unlimited))
  cases.append(
    Case(group: "B1", name: "screen event: update + configure 3 fields", iterations: 20_000) { n in
      try measure(n) { try three.perform(action: "bump") }
    })
  let bridge = try LuaViewBridge(runtime: runtime)
  let cardScript = try writeScreen("card.lua", benchLua(PackageResources.card_lua))
  let configurer = try LuaConfigurer<Product>(path: cardScript, bridge: bridge, coding: .plan)
  let card = Card()
  let product = Product(title: "Tea", count: 3, price: 4.5)
  cases.append(
    Case(group: "B1", name: "LuaConfigurer (Swift-driven, typed plan)", iterations: 50_000) { n in
      try measure(n) { try configurer.configure(card, with: product) }
    })
  cases.append(
    Case(group: "B1", name: "native Swift configurer", iterations: 1_000_000) { n in
      measure(n) {
        card.title.text = product.title
        card.count.text = String(product.count)
        card.price.text = String(product.price)
      }
    })

  // B2: the counter's tap round trip.
  /// A case tapping `+` on a counter screen opened with `limits`.
  func tapCase(_ name: String, limits: LuaRuntime.Limits) throws -> Case {
    let counter = try LuaScreen(
      path: repository.appendingPathComponent("examples/counter/counter.lua").path, options: .init(limits: limits))
    let plus = try counter.view("plus") as! Button
    return Case(group: "B2", name: name, iterations: 20_000) { n in
      precondition(!counter.isClosed)  // the screen must outlive the case (the button alone does not keep it)
      let before = counter.actionCount
      let time = measure(n) { plus.simulateTap() }
      precondition(counter.actionCount == before + n, "the tap did not reach the screen: \(counter.asyncErrors)")
      return time
    }
  }
  cases.append(try tapCase("counter tap round trip", limits: unlimited))
  let b2Floor = try floor(benchLua(PackageResources.tap_floor_lua))
  cases.append(Case(group: "B2", name: "counter tap, plain Lua (floor)", iterations: 200_000, run: b2Floor))
  // The same two under the default limits (a memory cap and a 1 s deadline per episode): what
  // the limits cost a tap, and plain Lua (compared with a runtime as fresh, without limits).
  cases.append(try tapCase("counter tap round trip, default limits", limits: LuaRuntime.Limits()))
  let b2LimitedFloor = try floor(benchLua(PackageResources.tap_floor_lua), in: LuaRuntime())
  cases.append(
    Case(group: "B2", name: "counter tap, plain Lua, default limits", iterations: 200_000, run: b2LimitedFloor))
  let b2FreshFloor = try floor(
    benchLua(PackageResources.tap_floor_lua), in: LuaRuntime(configuration: .init(limits: unlimited)))
  cases.append(
    Case(group: "B2", name: "counter tap, plain Lua, no limits, fresh", iterations: 200_000, run: b2FreshFloor))
  // What opting in to an instruction budget costs: Lua calls the count hook on every instruction.
  var budgeted = LuaRuntime.Limits()
  budgeted.instructionBudget = 100_000_000
  cases.append(try tapCase("counter tap round trip, with a budget", limits: budgeted))

  // B3: 10-field typed push + pull against the Codable path.
  let ten = TenFields()
  let encoder = LuaValueEncoder(rootName: "state")
  let decoder = LuaValueDecoder(rootName: "state")
  cases.append(
    Case(group: "B3", name: "10 fields push + pull, typed plan", iterations: 100_000) { n in
      try measure(n) {
        let table = runtime.makeTable(ten)
        var copy = ten
        try runtime.read(table, into: &copy)
      }
    })
  cases.append(
    Case(group: "B3", name: "10 fields push + pull, Codable", iterations: 20_000) { n in
      try measure(n) {
        let table = try runtime.makeValue(try encoder.encode(ten))
        _ = try decoder.decode(TenFields.self, from: try table.value())
      }
    })

  // B4: a list commit: one item changes in a list of N.
  for rows in quick ? [1_000, 10_000] : [1_000, 10_000, 100_000] {
    let list = try LuaScreen(path: try listScreen(rows), options: .init(limits: unlimited))
    var at = 0
    cases.append(
      Case(group: "B4", name: "list of \(rows): one item changes", iterations: rows >= 100_000 ? 200 : 2_000) { n in
        try measure(n) {
          at = at % rows + 1
          try list.perform(action: ["type": "toggle", "at": .integer(Int64(at))])
        }
      })
  }
  let rebuild = try LuaScreen(path: try listScreen(10_000), options: .init(limits: unlimited))
  cases.append(
    Case(group: "B4", name: "list of 10000: all rows rebuilt", iterations: 20) { n in
      try measure(n) { try rebuild.perform(action: "rebuild") }
    })
  let buildFloor = try floor(benchLua(PackageResources.build_rows_floor_lua))
  cases.append(Case(group: "B4", name: "10000 rows built in plain Lua (floor)", iterations: 20, run: buildFloor))

  // B5: opening a screen in a warm process (the host's chunks compiled once, or every time).
  let counterPath = repository.appendingPathComponent("examples/counter/counter.lua").path
  cases.append(
    Case(group: "B5", name: "open the counter screen", iterations: 300) { n in
      try measure(n) { _ = try LuaScreen(path: counterPath) }
    })
  cases.append(
    Case(group: "B5", name: "open it, host chunks compiled from text", iterations: 300) { n in
      HostChunkCache.bypass.store(true, ordering: .relaxed)
      defer { HostChunkCache.bypass.store(false, ordering: .relaxed) }
      return try measure(n) { _ = try LuaScreen(path: counterPath) }
    })

  // B6: the native core: configure and an event, with allocations.
  let native = NativeCounter()
  let store = BindingStore<Int, NativeCounter>(state: 0)
  store.apply(to: native)
  let handler = NativeHandler()
  handler.view = native
  native.ss.addActionHandler(to: handler)
  cases.append(
    Case(group: "B6", name: "native configure", iterations: 200_000) { n in measure(n) { native.ss.configure(1) } })
  cases.append(
    Case(group: "B6", name: "native tap → handler → store", iterations: 100_000) { n in
      measure(n) { native.plus.simulateTap() }
    })
  return cases
}

// MARK: - B5: cold start and heap

/// Median wall time of `argv` over `runs` spawns (ns).
func spawnMedian(_ argv: [String], runs: Int) -> Double? {
  var times: [Double] = []
  for _ in 0..<runs {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    let clock = ContinuousClock()
    let start = clock.now
    guard posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ) == 0 else { return nil }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    times.append(nanoseconds(clock.now - start))
    posix_spawn_file_actions_destroy(&actions)
  }
  return median(times)
}

// MARK: - Running

/// One case's iterations, in a function of its own: `scripts/bench.sh --instructions` has
/// callgrind count only inside it (`--toggle-collect`), so setting up every case (billions of
/// instructions, varying by tens of millions from run to run with hash seeds) is left out.
@MainActor
@inline(never)
func measuredRun(_ selected: Case, _ iterations: Int) throws -> Double {
  try selected.run(iterations)
}

/// The process's resident memory, in KiB (`/proc/self/statm`).
func residentKiB() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024 : 0
}

/// RSS over `total` taps of one counter screen in one process: measured after a warm-up of a
/// tenth of them (the action log filling to its limit, the allocator's arenas growing), then
/// every tenth; prints the growth after the warm-up (target: flat, ≤ 5%).
@MainActor
func rssOverTaps(total: Int, verbose: Bool) throws -> (growth: Double, high: Int) {
  let counter = try LuaScreen(path: repository.appendingPathComponent("examples/counter/counter.lua").path)
  let plus = try counter.view("plus") as! Button
  let step = max(1, total / 10)
  for _ in 0..<step { plus.simulateTap() }
  let warm = residentKiB()
  var high = warm
  if verbose { print("RSS after \(step) taps (warm-up): \(warm) KiB; Lua heap \(counter.runtime.memoryUsed / 1024) KiB") }
  var done = step
  while done < total {
    for _ in 0..<min(step, total - done) { plus.simulateTap() }
    done += min(step, total - done)
    let now = residentKiB()
    high = max(high, now)
    if verbose { print("  after \(done) taps: \(now) KiB; Lua heap \(counter.runtime.memoryUsed / 1024) KiB") }
  }
  precondition(counter.actionCount >= total, "the taps did not reach the screen: \(counter.asyncErrors)")
  let growth = 100 * Double(high - warm) / Double(warm)
  if verbose { print(String(format: "RSS growth after the warm-up: %.1f%% (highest %d KiB; target ≤ 5%%)", growth, high)) }
  return (growth, high)
}

/// The Lua heap of an open counter screen after a full collection, in KiB.
@MainActor
func counterHeap() throws -> Double {
  let screen = try LuaScreen(path: repository.appendingPathComponent("examples/counter/counter.lua").path)
  screen.runtime.collectGarbage()
  return Double(screen.runtime.memoryUsed) / 1024
}

/// A ratio the benchmarks judge: one case's cost over another's (its floor, or its baseline).
struct Ratio {
  let label: String
  let numerator: String
  let denominator: String
  let target: String
  /// Measured in the full run only (its case is slow).
  var full = false
}

let ratios: [Ratio] = [
  Ratio(label: "B1 screen update+configure / its plain-Lua floor", numerator: "screen event: update + configure 3 fields", denominator: "update + configure 3 fields, plain Lua (floor)", target: "≤ 10×"),
  Ratio(label: "B1 LuaConfigurer / plain-Lua configure floor", numerator: "LuaConfigurer (Swift-driven, typed plan)", denominator: "configure 3 fields, plain Lua (floor)", target: "≤ 10×"),
  Ratio(label: "B1 native Swift configurer / plain-Lua floor", numerator: "native Swift configurer", denominator: "configure 3 fields, plain Lua (floor)", target: "(reference)"),
  Ratio(label: "B2 counter tap / its plain-Lua floor", numerator: "counter tap round trip", denominator: "counter tap, plain Lua (floor)", target: "≤ 10×"),
  Ratio(label: "B2 tap, default limits / no limits", numerator: "counter tap round trip, default limits", denominator: "counter tap round trip", target: "≤ 1.10×"),
  Ratio(label: "B2 plain Lua, default limits / no limits", numerator: "counter tap, plain Lua, default limits", denominator: "counter tap, plain Lua, no limits, fresh", target: "≤ 1.10×"),
  Ratio(label: "B2 tap with a budget / no limits", numerator: "counter tap round trip, with a budget", denominator: "counter tap round trip", target: "(opt-in)"),
  Ratio(label: "B3 Codable / typed plan (10 fields push + pull)", numerator: "10 fields push + pull, Codable", denominator: "10 fields push + pull, typed plan", target: "≥ 10×"),
  Ratio(label: "B4 flatness: 10,000 rows / 1,000 rows", numerator: "list of 10000: one item changes", denominator: "list of 1000: one item changes", target: "≤ 1.5×"),
  Ratio(label: "B4 flatness: 100,000 rows / 1,000 rows", numerator: "list of 100000: one item changes", denominator: "list of 1000: one item changes", target: "≤ 1.5×", full: true),
  Ratio(label: "B4 10,000 rows rebuilt / building them in plain Lua", numerator: "list of 10000: all rows rebuilt", denominator: "10000 rows built in plain Lua (floor)", target: "≤ 2×"),
  Ratio(label: "B5 open a screen: chunks from text / from bytecode", numerator: "open it, host chunks compiled from text", denominator: "open the counter screen", target: "(reference)"),
]

/// Instructions per operation, by case, from `scripts/bench.sh`'s callgrind pass (a file of
/// "case<TAB>instructions" lines), or none.
let instructionCounts: [String: Double] = {
  guard let path = option("--instructions-file"), let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
  var counts: [String: Double] = [:]
  for line in text.split(separator: "\n") {
    let fields = line.split(separator: "\t")
    if fields.count == 2, let value = Double(fields[1]) { counts[String(fields[0])] = value }
  }
  return counts
}()

@MainActor
func main() throws {
  // The profile names the kernel's functions by line: its chunks keep their debug information
  // (set before makeCases opens the cases' screens).
  if arguments.contains("--profile-lua") { HostChunkCache.withDebugInfo.store(true, ordering: .relaxed) }
  if arguments.contains("--rss") {
    _ = try rssOverTaps(total: option("--taps").flatMap(Int.init) ?? 1_000_000, verbose: true)
    return
  }
  if arguments.contains("--heap") {
    print(String(format: "Lua heap of the open counter screen: %.1f KiB", try counterHeap()))
    return
  }
  if arguments.contains("--ratios-only") {
    // scripts/bench.sh --instructions: the ratios by instructions alone.
    print("ratios by callgrind's instructions per operation".padding(toLength: 56, withPad: " ", startingAt: 0) + "    instr   target")
    for item in ratios {
      guard let top = instructionCounts[item.numerator], let bottom = instructionCounts[item.denominator] else { continue }
      print("  \(item.label.padding(toLength: 54, withPad: " ", startingAt: 0)) \(String(format: "%7.2f×", top / bottom))   \(item.target)")
    }
    return
  }
  let cases = try makeCases()
  if arguments.contains("--instruction-runs") {
    // For scripts/bench.sh's callgrind pass (it dumps the counts at the end of each
    // measuredRun): per case in a ratio, a warm-up, then 1 and N + 1 iterations; the case and N
    // are printed in the order of the runs, so the difference of each pair of dumps over N is
    // the case's instructions per operation, what it does once cancelled out.
    let names = Set(ratios.filter { !quick || !$0.full }.flatMap { [$0.numerator, $0.denominator] })
    for item in cases where names.contains(item.name) {
      // (At most N warm-up iterations: a case under the default limits runs its iterations in
      // one episode, and under callgrind 20,000 of them pass the 1 s deadline.)
      let n = min(item.iterations, onlyIterations ?? 2_000)
      _ = try item.run(max(1, min(n, item.iterations / 10)))
      _ = try measuredRun(item, 1)
      _ = try measuredRun(item, n + 1)
      print("\(item.name)\t\(n)")
    }
    return
  }
  if let only {
    guard let selected = cases.first(where: { $0.name == only }) else {
      print("no case '\(only)'; cases:\n  " + cases.map(\.name).joined(separator: "\n  "))
      exit(2)
    }
    if arguments.contains("--profile-lua") {
      // Where the Lua part of a case goes: VM instructions by Lua function (the kernel's are
      // "kernel.engine:LINE" and "kernel.state:LINE"), counted by the limits' count hook.
      _ = try selected.run(max(1, (onlyIterations ?? selected.iterations) / 10))  // warm-up
      LuaProfiler.start()
      let iterations = onlyIterations ?? selected.iterations
      _ = try selected.run(iterations)
      LuaProfiler.stop()
      let entries = LuaProfiler.report()
      let total = entries.reduce(0) { $0 + $1.instructions }
      print("\(only): \(total / max(1, iterations)) Lua VM instructions per operation (hooks on), by function:")
      for entry in entries.prefix(30) {
        print(String(format: "  %7d  %5.1f%%  %@", entry.instructions / max(1, iterations), 100 * Double(entry.instructions) / Double(max(1, total)), entry.function))
      }
      return
    }
    // Warmed up first, by the same count whatever --iterations says (callgrind counts only
    // measuredRun, and bench.sh subtracts a 1-iteration run): what a case does once (the action
    // log filling to its limit, caches, the allocator's first growth) is not counted per operation.
    _ = try selected.run(max(1, selected.iterations / 10))
    _ = try measuredRun(selected, onlyIterations ?? selected.iterations)
    return
  }
  let rounds = quick ? 2 : 7
  let scale = quick ? 20 : 1
  for item in cases { _ = try item.run(max(1, item.iterations / 10 / scale)) }  // warm-up
  var results: [String: [Double]] = [:]
  for _ in 0..<rounds {
    for item in cases {
      results[item.name, default: []].append(try item.run(max(1, item.iterations / scale)))
    }
  }
  var mallocs: [String: Double] = [:]
  for item in cases where ["B1", "B2", "B4", "B6"].contains(item.group) {
    if let count = try allocations(max(1, min(item.iterations, 1_000) / scale), { _ = try item.run(1) }) {
      mallocs[item.name] = count
    }
  }

  let machine = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
    .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
    .trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
  print("SendingState benchmarks — release, \(rounds) rounds, medians per operation; \(machine), \(ProcessInfo.processInfo.activeProcessorCount) cores")
  print("")
  func format(_ ns: Double) -> String {
    ns >= 1_000_000 ? String(format: "%8.2f ms", ns / 1e6) : ns >= 10_000 ? String(format: "%8.1f µs", ns / 1e3) : String(format: "%8.0f ns", ns)
  }
  print("case                                              median      spread (min–max)        mallocs")
  var group = ""
  for item in cases {
    if item.group != group {
      group = item.group
      print(group)
    }
    let values = results[item.name] ?? []
    let spread = "\(format(values.min() ?? 0).trimmingCharacters(in: .whitespaces)) – \(format(values.max() ?? 0).trimmingCharacters(in: .whitespaces))"
    let allocs = mallocs[item.name].map { String(format: "%7.1f", $0) } ?? "      –"
    print("  \(item.name.padding(toLength: 46, withPad: " ", startingAt: 0)) \(format(median(values)))   \(spread.padding(toLength: 22, withPad: " ", startingAt: 0)) \(allocs)")
  }
  func m(_ name: String) -> Double { median(results[name] ?? []) }
  print("")
  let byInstructions = !instructionCounts.isEmpty
  print("ratios, from this run's medians" + (byInstructions ? " and callgrind's instructions per operation" : ""))
  print("  " + "".padding(toLength: 54, withPad: " ", startingAt: 0) + "    wall" + (byInstructions ? "    instr" : "") + "   target")
  func ratio(_ label: String, _ value: Double, _ instructions: Double?, _ target: String) {
    let counted = byInstructions ? (instructions.map { String(format: " %7.2f×", $0) } ?? "        –") : ""
    print("  \(label.padding(toLength: 54, withPad: " ", startingAt: 0)) \(String(format: "%7.2f×", value))\(counted)   \(target)")
  }
  for item in ratios where !quick || !item.full {
    let counted = instructionCounts[item.numerator].flatMap { top in instructionCounts[item.denominator].map { top / $0 } }
    ratio(item.label, m(item.numerator) / m(item.denominator), counted, item.target)
  }
  print(String(format: "  %@ %7.2f ms   ≤ 2 ms", "B4 host part, one item of 10,000 changes".padding(toLength: 54, withPad: " ", startingAt: 0), m("list of 10000: one item changes") / 1e6))
  let rebuildHost = m("list of 10000: all rows rebuilt") - m("10000 rows built in plain Lua (floor)")
  print(String(format: "  %@ %7.2f ms", "B4 host part of rebuilding 10,000 rows".padding(toLength: 54, withPad: " ", startingAt: 0), rebuildHost / 1e6))
  // B5: heap per open screen, and cold start when the script gives the binaries.
  print(String(format: "  %@ %7.1f KiB   ≤ 100 KiB", "B5 Lua heap of the open counter screen".padding(toLength: 54, withPad: " ", startingAt: 0), try counterHeap()))
  if let hello = option("--hello"), let cli = option("--cli") {
    let runs = quick ? 3 : 15
    let counterPath = repository.appendingPathComponent("examples/counter/counter.lua").path
    if let helloTime = spawnMedian([hello], runs: runs),
      let cliTime = spawnMedian([cli, "run", counterPath, "--send", "tap plus"], runs: runs)
    {
      print(String(format: "  %@ %7.1f ms (hello %.1f ms)", "B5 CLI cold start: run the counter with one tap".padding(toLength: 54, withPad: " ", startingAt: 0), cliTime / 1e6, helloTime / 1e6))
      ratio("B5 CLI cold start / Swift+Foundation hello process", cliTime / helloTime, nil, "≤ 2×")
    }
  }
  let taps = quick ? 100_000 : 1_000_000
  let rss = try rssOverTaps(total: taps, verbose: false)
  print(String(format: "  %@ %+6.1f%%    ≤ 5%% (%d KiB)", "B6 RSS growth over \(taps) taps, after a tenth".padding(toLength: 54, withPad: " ", startingAt: 0), rss.growth, rss.high))
  if let tap = mallocs["counter tap round trip"], let native = mallocs["native tap → handler → store"] {
    print(String(format: "  %@ %7.1f (native core: %.1f)", "B6 allocations per tap: counter screen".padding(toLength: 54, withPad: " ", startingAt: 0), tap, native))
  }
}

try MainActor.assumeIsolated { try main() }
