// Benchmarks of the Lua bridge, release builds only: `scripts/bench.sh`.
//
// Each case runs in the same process, interleaved over several rounds; the report gives the
// median nanoseconds per operation and the ratios between cases, which are what we track
// (absolute numbers vary ±20–30 % on a shared 2-core machine).
import Foundation
import SendingStateHeadless
import SendingStateLua

struct Product: Codable, LuaTableRepresentable {
  var title: String
  var count: Int
  var price: Double
  var favorite: Bool
  static let luaPlan = LuaTablePlan<Product> {
    LuaField("title", \.title)
    LuaField("count", \.count)
    LuaField("price", \.price)
    LuaField("favorite", \.favorite)
  }
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

func measure(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  for _ in 0..<iterations { try body() }
  let elapsed = clock.now - start
  let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
  return nanoseconds / Double(iterations)
}

let runtime = try LuaRuntime(configuration: .init(limits: .init(memoryLimit: nil, instructionBudget: nil)))
let configure = try runtime.load(
  "local m = ...; local t = m.title; local c = m.count; local p = m.price; local f = m.favorite; return c")
let model = Product(title: "Green tea", count: 3, price: 4.5, favorite: true)
let encoder = LuaValueEncoder(rootName: "state")
let decoder = LuaValueDecoder(rootName: "state")
let table = runtime.makeTable(model)
let tableValue = try table.value()

// A whole screen round trip: tap → event callback → handle → validated commit → configure.
let counterPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("examples/counter/counter.lua").path
let screen = try LuaScreen(path: counterPath, options: .init(limits: .init(memoryLimit: nil, instructionBudget: nil)))
let plus = try screen.view("plus") as! Button

let iterations = 20_000
let rounds = 7
var results: [String: [Double]] = [:]
let cases: [(String, () throws -> Void)] = [
  ("configure call, typed plan", { _ = try runtime.call(configure, with: model) }),
  ("configure call, Codable", { _ = try runtime.call(configure, with: [try encoder.encode(model)]) }),
  ("read table, typed plan", {
    var copy = model
    try runtime.read(table, into: &copy)
  }),
  ("read table, Codable", { _ = try decoder.decode(Product.self, from: try table.value()) }),
  ("decode only, Codable", { _ = try decoder.decode(Product.self, from: tableValue) }),
  ("screen tap round trip", { plus.simulateTap() }),
]
// `SendingStateBenchmarks "case name" N` runs one case N times (for callgrind).
if CommandLine.arguments.count == 3, let only = cases.first(where: { $0.0 == CommandLine.arguments[1] }),
  let count = Int(CommandLine.arguments[2])
{
  _ = try measure(count, only.1)
  exit(0)
}
for (_, body) in cases { _ = try measure(2_000, body) }  // warm-up
for _ in 0..<rounds {
  for (name, body) in cases {
    results[name, default: []].append(try measure(iterations, body))
  }
}

print("Lua bridge benchmark (release, \(rounds) rounds × \(iterations) iterations, median ns/op)")
for (name, _) in cases {
  print("  \(name.padding(toLength: 30, withPad: " ", startingAt: 0)) \(String(format: "%8.0f", median(results[name]!)))")
}
let callRatio = median(results["configure call, Codable"]!) / median(results["configure call, typed plan"]!)
let readRatio = median(results["read table, Codable"]!) / median(results["read table, typed plan"]!)
print(String(format: "  ratio Codable / typed plan: configure call %.1f×, read %.1f×", callRatio, readRatio))
