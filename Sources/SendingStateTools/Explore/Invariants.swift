import Foundation
import SendingStateLua

/// What must hold after every event, for `explore` and `run`: Lua expressions over `state`
/// (`--invariant 'state.count >= 0'`), and the `ss.invariant([name,] fn)` calls at the top level
/// of a spec file (`--spec FILE`), where `fn(state, view)` returns true while the screen is right.
///
/// They run sandboxed in a runtime of their own (not the screen's), with `state` a copy of the
/// screen's state and `view.<id>.<property>` read from the screen when asked; `math.random` is
/// seeded (so an exploration repeats) and what they print goes where the screen's output goes.
/// A spec's top level runs there once, in an environment of its own with busted's blocks as
/// no-ops, so its tests do not run. There is no luassert: an invariant returns a boolean, or
/// raises an error (`assert(cond, message)`, `error(...)`).
///
/// ```swift
/// let invariants = try Invariants(["state.count >= 0"], spec: "spec/counter_spec.lua", output: { print($0) })
/// if let broken = invariants.broken(by: screen.state, on: screen) { print(broken.message) }
/// ```
@MainActor
package struct Invariants {
  private let runtime: LuaRuntime
  private let chunks: [(text: String, chunk: LuaRef)]
  /// The spec's invariants by name (`name (file:line)`, or `file:line`), and the function
  /// that runs one.
  private let declared: [String]
  private let check: LuaRef?

  /// busted's blocks and hooks, which a spec's top level may call: no-ops here.
  nonisolated static let blocks = [
    "describe", "context", "insulate", "expose", "it", "spec", "test", "pending", "before_each", "after_each", "setup",
    "teardown", "lazy_setup", "lazy_teardown", "strict_setup", "strict_teardown", "finally", "randomize",
  ]
  /// The screen `view` reads from while checking (weak: the screen is the caller's).
  private let looked: Looked

  private final class Looked {
    weak var screen: LuaScreen?
  }

  /// Whether there are none.
  package var isEmpty: Bool { chunks.isEmpty && declared.isEmpty }

  /// The names of the spec's invariants, in the order it declares them.
  package var specNames: [String] { declared }

  /// Compiles `texts` and reads the invariants that `spec` declares; `randomSeed` seeds their
  /// `math.random`, `output` takes what they print.
  ///
  /// - Throws: ``ToolError/usage(_:)`` for a text that is not a Lua expression, or a spec that
  ///   does not load or declares none, saying what to write.
  package init(_ texts: [String], spec: String? = nil, randomSeed: Int64 = 1, output: @escaping (String) -> Void) throws {
    var configuration = LuaRuntime.Configuration()
    if let spec { configuration.scriptRoots = [PathText.folder(of: spec).isEmpty ? "." : PathText.folder(of: spec)] }
    configuration.randomSeed = randomSeed
    runtime = try LuaRuntime(configuration: configuration)
    runtime.output = output
    looked = Looked()
    var chunks: [(String, LuaRef)] = []
    for text in texts {
      do {
        chunks.append((text, try runtime.load("local state = ...\nreturn (" + text + "\n)", chunkName: "=invariant")))
      } catch {
        throw ToolError.usage("the invariant '\(text)' is not a Lua expression over state (e.g. 'state.count >= 0'): \(error.message)")
      }
    }
    self.chunks = chunks
    guard let spec else {
      declared = []
      check = nil
      return
    }
    let looked = looked
    let property = runtime.makeFunction("view") { call in
      try MainActor.assumeIsolated {
        guard let screen = looked.screen else {
          throw ScriptError(kind: .runtime, message: "view is only readable while an invariant is checked")
        }
        do {
          try call.push(try screen.property(try call.string(2), of: try call.string(1)))
        } catch let error as ScriptError {
          throw error
        } catch {
          throw ScriptError(kind: .runtime, message: ToolError.from(error).description)
        }
        return 1
      }
    }
    do {
      let setup = try runtime.load(HostCode.text("tools/invariants.lua"), chunkName: "=invariants")
      let parts = try runtime.callReturningReferences(setup, with: [property], context: "invariants")
      guard parts.count == 2, let seal = parts[1].field("seal"), let name = parts[1].field("name"),
        let check = parts[1].field("check")
      else {
        preconditionFailure("tools/invariants.lua returns the module and the spec's invariants")
      }
      runtime.preload("sendingstate", parts[0])
      // (Globals of every environment made from now on: the spec's gets them, in a fresh
      // sandbox environment of its own.)
      for block in Invariants.blocks { runtime.register(block) { _ in 0 } }
      let folder = PathText.folder(of: spec)
      _ = try runtime.call(try runtime.loadFile(spec, root: folder.isEmpty ? "." : folder), context: "the spec's top level")
      let count = try runtime.call(seal, context: "invariants").first?.intValue ?? 0
      var names: [String] = []
      for index in 0..<count {
        names.append(try runtime.call(name, with: [.integer(Int64(index + 1))], context: "invariants").first?.stringValue ?? "?")
      }
      declared = names
      self.check = check
    } catch {
      throw ToolError.usage(
        "--spec \(spec): the spec's invariants could not be read (only its top level runs, with describe, it and "
          + "the hooks skipped): \(ToolError.from(error).description)")
    }
    guard !declared.isEmpty else {
      throw ToolError.usage(
        "--spec \(spec): the spec declares no invariant; at its top level, write e.g. "
          + "ss.invariant(\"count stays positive\", function(state, view) return state.count >= 0 end)")
    }
  }

  /// The first invariant `state` breaks (false or nil, or an error while checking it): its
  /// name and what to say. The spec's invariants read their `view` from `screen`.
  package func broken(
    by state: LuaValue, on screen: LuaScreen? = nil, until deadline: ContinuousClock.Instant? = nil
  ) -> (text: String, message: String)? {
    for (text, chunk) in chunks {
      do {
        let values = try runtime.call(chunk, with: [state], context: "invariant")
        let holds = values.first.map { $0 != .nil && $0 != .boolean(false) } ?? false
        if !holds {
          return (text, "the invariant '\(text)' does not hold: state = \(ReportText.literal(state, limit: 2_000, valueLimit: 200))")
        }
      } catch {
        return (text, "the invariant '\(text)' failed to run: \(error.description)")
      }
    }
    guard let check else { return nil }
    looked.screen = screen
    defer { looked.screen = nil }
    for (offset, name) in declared.enumerated() {
      // (Each call has the runtime's time limit; together they stop at the caller's deadline.)
      if let deadline, ContinuousClock.now >= deadline { return nil }
      do {
        let values = try runtime.call(check, with: [.integer(Int64(offset + 1)), state], context: "invariant")
        let holds = values.first.map { $0 != .nil && $0 != .boolean(false) } ?? false
        if !holds {
          return (name, "the invariant \(name) does not hold: state = \(ReportText.literal(state, limit: 2_000, valueLimit: 200))")
        }
      } catch {
        return (name, "the invariant \(name) failed: \(error.description)")
      }
    }
    return nil
  }
}
