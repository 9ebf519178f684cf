import Foundation
import SendingStateLua

/// What must hold after every event, for `explore` and `run`: Lua expressions over `state`
/// (`--invariant 'state.count >= 0'`), and the `ss.invariant([name,] fn)` calls at the top level
/// of a spec file (`--spec FILE`), where `fn(state, view)` returns true while the screen is right.
///
/// They run sandboxed in a runtime of their own (not the screen's), with `state` a copy of the
/// screen's state and `view.<id>.<property>` read from the screen when asked. A spec's top level
/// runs there once with busted's blocks as no-ops, so its tests do not run.
///
/// ```swift
/// let invariants = try Invariants(["state.count >= 0"], spec: "spec/counter_spec.lua")
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
  /// The screen `view` reads from while checking (weak: the screen is the caller's).
  private let looked: Looked

  private final class Looked {
    weak var screen: LuaScreen?
  }

  /// Whether there are none.
  package var isEmpty: Bool { chunks.isEmpty && declared.isEmpty }

  /// The names of the spec's invariants, in the order it declares them.
  package var specNames: [String] { declared }

  /// Compiles `texts` and reads the invariants that `spec` declares.
  ///
  /// - Throws: ``ToolError/usage(_:)`` for a text that is not a Lua expression, or a spec that
  ///   does not load or declares none, saying what to write.
  package init(_ texts: [String], spec: String? = nil) throws {
    var configuration = LuaRuntime.Configuration()
    if let spec { configuration.scriptRoots = [PathText.folder(of: spec).isEmpty ? "." : PathText.folder(of: spec)] }
    runtime = try LuaRuntime(configuration: configuration)
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
      guard parts.count == 3, let names = parts[2].field("names"), let check = parts[2].field("check") else {
        preconditionFailure("tools/invariants.lua returns the module, the spec's environment and its invariants")
      }
      runtime.preload("sendingstate", parts[0])
      let folder = PathText.folder(of: spec)
      _ = try runtime.call(try runtime.loadFile(spec, root: folder.isEmpty ? "." : folder, environment: parts[1]), context: "the spec's top level")
      declared = try runtime.call(names, context: "invariants").first?.tableValue?.sequence.compactMap(\.stringValue) ?? []
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
  package func broken(by state: LuaValue, on screen: LuaScreen? = nil) -> (text: String, message: String)? {
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
