import Foundation
import SendingStateLua

/// `sendingstate test`: runs Lua spec files with a busted-style API and a screen driver.
///
/// Specs (`*_spec.lua`, `*.spec.lua`) use `describe`, `it`, `pending`, `before_each`,
/// `after_each`, `assert.are.equal`, `assert.are.same` (deep), `assert.is_true`,
/// `assert.is_false`, `assert.is_nil`, `assert.has_error(fn [, message])`, and drive screens:
///
/// ```lua
/// local ss = require "sendingstate"
/// describe("counter", function()
///   it("increments", function()
///     local screen = ss.open("examples/counter/counter.lua")
///     screen:tap("plus")
///     assert.are.equal(2, screen.state.count)
///     assert.are.equal("2", screen.view.count.text)
///   end)
/// end)
/// ```
///
/// Screens opened in a test are closed after it. The last output line is `N passed, N failed`.
@MainActor
public final class SpecRunner {
  /// The outcome of one `it`.
  public struct Result: Sendable, Equatable {
    /// The spec file.
    public var file: String
    /// `describe › … › it`.
    public var name: String
    /// Passed, failed or skipped.
    public var status: Status
    /// The failure message (assertion, expected vs actual, file:line).
    public var message: String?
  }

  /// A test's outcome.
  public enum Status: String, Sendable {
    /// Every assertion held.
    case passed
    /// An assertion or the code failed.
    case failed
    /// `pending(...)`: not run.
    case skipped
  }

  /// Every result so far, in run order.
  public private(set) var results: [Result] = []
  private var screens: [Int64: LuaScreen] = [:]
  private var nextHandle: Int64 = 0
  private let output: (String) -> Void

  /// Creates a runner that prints through `output`.
  public init(output: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }) {
    self.output = output
  }

  /// The counts of passed, failed and skipped tests.
  public var summary: (passed: Int, failed: Int, skipped: Int) {
    (
      results.filter { $0.status == .passed }.count, results.filter { $0.status == .failed }.count,
      results.filter { $0.status == .skipped }.count
    )
  }

  /// The last line: `N passed, N failed` (and `, N skipped` when any were).
  public var summaryLine: String {
    let counts = summary
    return "\(counts.passed) passed, \(counts.failed) failed" + (counts.skipped > 0 ? ", \(counts.skipped) skipped" : "")
  }

  /// Runs every spec file under `paths` (files as given, folders searched).
  public func run(paths: [String]) async throws {
    let files = try paths.flatMap { path -> [String] in
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue { return [path] }
      return try Checker.scripts(in: [path], specs: true)
    }
    guard !files.isEmpty else {
      throw ToolError.usage("no spec files (*_spec.lua or *.spec.lua) under \(paths.joined(separator: ", "))")
    }
    for file in files { await run(file: file) }
  }

  /// Runs one spec file.
  public func run(file: String) async {
    output(file)
    let before = results.count
    do {
      try await runFile(file)
    } catch {
      results.append(Result(file: file, name: "(loading the spec)", status: .failed, message: ToolError.from(error).description))
    }
    closeAll()
    for result in results[before...] {
      switch result.status {
      case .passed: output("  ✓ \(result.name)")
      case .skipped: output("  - \(result.name) (pending)")
      case .failed:
        output("  ✗ \(result.name)")
        for line in (result.message ?? "").split(separator: "\n", omittingEmptySubsequences: false) {
          output("      \(line)")
        }
      }
    }
  }

  private func runFile(_ file: String) async throws {
    let folder = (file as NSString).deletingLastPathComponent
    let runtime = try LuaRuntime(
      configuration: .init(limits: .init(instructionBudget: 1_000_000_000), scriptRoots: [folder.isEmpty ? "." : folder]))
    runtime.output = { [output] line in output("    " + line) }
    let framework = try runtime.callReturningReferences(
      try runtime.load(SpecFramework.source, chunkName: "=spec", environment: runtime.newTrustedEnvironment()), with: [],
      context: "spec framework")[0]
    guard let install = framework.field("install"), let driver = framework.field("driver"),
      let starter = framework.field("starter")
    else {
      throw ToolError.usage("the spec framework failed to load")
    }
    let prims = try makePrimitives(runtime, specFolder: folder)
    let module = try runtime.makeValue(["version": .string(LuaScreen.apiVersion)])
    // NB: Lua keeps this closure; capturing the runtime or references strongly would be a
    // Swift↔Lua cycle that keeps the whole state alive.
    module.setField("open", to: runtime.makeFunction("open") { [unowned self, weak driver, weak prims] call in
      try MainActor.assumeIsolated {
        guard let driver, let prims else { throw ScriptError(kind: .runtime, message: "ss.open after the spec ended") }
        let handle = try self.open(call, specFolder: folder)
        let made = try call.runtime.callReturningReferences(
          driver, with: [prims, call.runtime.makeValue(.integer(handle))], context: "ss.open")
        call.push(made[0])
        return 1
      }
    })
    runtime.preload("sendingstate", module)
    let env = try runtime.newEnvironment()
    let runner = try runtime.callReturningReferences(install, with: [env, prims], context: "spec framework")[0]
    let spec = try runtime.loadFile(file, environment: env)
    try runtime.call(spec, context: "loading the spec")
    let report = runtime.makeFunction("report") { [unowned self] call in
      let name = try call.string(1)
      let status = Status(rawValue: try call.string(2)) ?? .failed
      let message = try call.optionalString(3)
      MainActor.assumeIsolated { self.results.append(Result(file: file, name: name, status: status, message: message)) }
      return 0
    }
    // The tests run in a coroutine, so `screen:settle()` can hand control back here while the
    // screens' effects finish.
    let step = try runtime.callReturningReferences(starter, with: [runner, report], context: "spec framework")[0]
    while true {
      let request = try runtime.call(step, context: "running specs").first ?? .nil
      guard request[1] == "settle" else { break }
      let seconds = request[2].doubleValue ?? 10
      for screen in screens.values {
        await screen.settle(timeout: .milliseconds(Int(seconds * 1000)))
      }
    }
  }

  // MARK: - Screen driver primitives

  private func open(_ call: LuaCall, specFolder: String) throws -> Int64 {
    let given = try call.string(1)
    var path = given
    if !FileManager.default.fileExists(atPath: path) {
      let beside = (specFolder as NSString).appendingPathComponent(given)
      if FileManager.default.fileExists(atPath: beside) { path = beside }
    }
    var options = LuaScreen.Options()
    if call.count >= 2, call.typeName(2) == "table" {
      let settings = try call.value(2)
      if settings["state"] != .nil { options.state = settings["state"] }
      if let data = settings["data"].stringValue {
        guard let contents = FileManager.default.contents(atPath: data)
            ?? FileManager.default.contents(atPath: (specFolder as NSString).appendingPathComponent(data))
        else { throw ScriptError(kind: .runtime, message: "ss.open: cannot read data file '\(data)'") }
        options.data = try ServerPayload(json: contents)
      }
    }
    let screen: LuaScreen
    do {
      screen = try LuaScreen(path: path, options: options)
    } catch let error as ScreenUsageError {
      throw ScriptError(kind: .runtime, message: "ss.open: \(error.description)")
    }
    nextHandle += 1
    screens[nextHandle] = screen
    return nextHandle
  }

  private func closeAll() {
    screens.values.forEach { $0.close() }
    screens.removeAll()
  }

  private func makePrimitives(_ runtime: LuaRuntime, specFolder: String) throws -> LuaRef {
    let prims = try runtime.makeValue(.table(LuaTable()))
    func screen(_ call: LuaCall) throws -> LuaScreen {
      guard let screen = screens[try call.integer(1)] else {
        throw ScriptError(kind: .runtime, message: "the screen was closed")
      }
      return screen
    }
    prims.setField("closeAll", to: runtime.makeFunction("closeAll") { [unowned self] _ in
      MainActor.assumeIsolated { self.closeAll() }
      return 0
    })
    prims.setField("close", to: runtime.makeFunction("close") { [unowned self] call in
      let handle = try call.integer(1)
      MainActor.assumeIsolated {
        self.screens[handle]?.close()
        self.screens[handle] = nil
      }
      return 0
    })
    prims.setField("state", to: runtime.makeFunction("state") { call in
      try MainActor.assumeIsolated { try call.push(try screen(call).state) }
      return 1
    })
    prims.setField("actions", to: runtime.makeFunction("actions") { call in
      try MainActor.assumeIsolated { try call.push(.table(LuaTable(sequence: try screen(call).actionLog))) }
      return 1
    })
    prims.setField("tree", to: runtime.makeFunction("tree") { call in
      try MainActor.assumeIsolated { call.push((try screen(call).root.renderTree().text)) }
      return 1
    })
    prims.setField("property", to: runtime.makeFunction("property") { call in
      try MainActor.assumeIsolated {
        let target = try screen(call)
        let row = try call.optionalString(2).map { (list: $0, index: Int(try call.integer(3))) }
        do {
          call.push(true)
          try call.push(try target.property(try call.string(5), of: try call.string(4), inRow: row))
        } catch {
          call.push(false)
          call.push(ToolError.from(error).description)
        }
        return 2
      }
    })
    prims.setField("act", to: runtime.makeFunction("act") { call in
      try MainActor.assumeIsolated {
        let target = try screen(call)
        let list = try call.optionalString(2)
        do {
          let id = try call.string(5)
          let driver = try list.map { try target.row($0, Int(try call.integer(3))) } ?? target.driver
          switch try call.string(4) {
          case "tap": try driver.tap(id)
          case "send": try driver.send(id, try call.string(6))
          case "set": try driver.set(id, try call.value(6))
          case "type": try driver.type(id, try call.string(6))
          default: try driver.gesture(id, try call.string(6), try call.value(7).tableValue?.fields ?? [:])
          }
          call.push(true)
          return 1
        } catch {
          call.push(false)
          call.push(ToolError.from(error).description)
          return 2
        }
      }
    })
    return prims
  }
}
