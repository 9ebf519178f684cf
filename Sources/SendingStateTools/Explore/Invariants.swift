import SendingStateLua

/// Lua expressions over `state` that must hold after every event (`state.count >= 0`), for
/// `explore --invariant` and `run --invariant`. Each runs in a sandboxed runtime of its own
/// (not the screen's), with `state` a copy of the screen's state.
///
/// ```swift
/// let invariants = try Invariants(["state.count >= 0"])
/// if let broken = invariants.broken(by: screen.state) { print(broken.message) }
/// ```
@MainActor
package struct Invariants {
  private let runtime: LuaRuntime
  private let chunks: [(text: String, chunk: LuaRef)]

  /// Whether there are none.
  package var isEmpty: Bool { chunks.isEmpty }

  /// Compiles `texts`.
  ///
  /// - Throws: ``ToolError/usage(_:)`` for one that is not a Lua expression, saying what to write.
  package init(_ texts: [String]) throws {
    runtime = try LuaRuntime()
    var chunks: [(String, LuaRef)] = []
    for text in texts {
      do {
        chunks.append((text, try runtime.load("local state = ...\nreturn (" + text + "\n)", chunkName: "=invariant")))
      } catch {
        throw ToolError.usage("the invariant '\(text)' is not a Lua expression over state (e.g. 'state.count >= 0'): \(error.message)")
      }
    }
    self.chunks = chunks
  }

  /// The first invariant `state` breaks (false or nil, or an error while checking it): its text
  /// and what to say.
  package func broken(by state: LuaValue) -> (text: String, message: String)? {
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
    return nil
  }
}
