import Foundation
import SendingStateLua

/// The path of a script fixture beside these tests.
func fixturePath(_ name: String) -> String {
  Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)!.path
}

/// The folder of the fixtures (a script root for `require`).
var fixturesFolder: String {
  Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
}

/// A runtime whose `print` output is collected.
final class Harness {
  let runtime: LuaRuntime
  var printed: [String] = []

  init(configuration: LuaRuntime.Configuration = LuaRuntime.Configuration()) throws {
    runtime = try LuaRuntime(configuration: configuration)
    runtime.output = { [unowned self] line in self.printed.append(line) }
  }

  /// Runs a fixture file and returns its results.
  @discardableResult
  func run(_ fixture: String, context: String? = nil) throws -> [LuaValue] {
    try runtime.call(runtime.loadFile(fixturePath(fixture)), context: context)
  }

  /// Runs a fixture and returns the error it must raise.
  func failure(_ fixture: String, context: String? = nil) -> ScriptError? {
    do {
      try run(fixture, context: context)
      return nil
    } catch let error as ScriptError {
      return error
    } catch {
      return ScriptError(kind: .runtime, message: "unexpected \(error)")
    }
  }
}

/// Counts live instances, to prove releases.
final class Tracked {
  nonisolated(unsafe) static var alive = 0
  let name: String
  init(_ name: String = "") {
    self.name = name
    Tracked.alive += 1
  }
  deinit { Tracked.alive -= 1 }
}
