import Foundation
import SendingStateLua

/// A failure ``Explorer`` found, written so it replays: a `sendingstate run` command (on the
/// same virtual clock, settling as long after each event, checking the same invariant) and a
/// busted spec that fails until the screen is fixed.
///
/// ```swift
/// print(ExploreReproducer.command(for: failure, path: "counter.lua", options: options))
/// ```
package enum ExploreReproducer {
  /// `sendingstate run PATH --virtual-clock --settle S [screen arguments] --send '…' … [--invariant '…']`;
  /// `screenArguments` are the arguments that opened the screen (`--state`, `--data`, `--root`,
  /// the plugin flags), as given.
  package static func command(
    for failure: Explorer.Failure, path: String, options: Explorer.Options, screenArguments: [String]
  ) -> String {
    // (A path starting with a dash would read as an option.)
    let shown = path.hasPrefix("-") ? "./" + path : path
    var words = [
      "sendingstate", "run", shellQuoted(shown), "--virtual-clock", "--offline", "--random-seed",
      String(Explorer.screenSeed(options.seed)), "--settle", ExploreEvents.number(options.settle),
    ]
    words += screenArguments.map(shellQuoted)
    for event in failure.events { words += ["--send", shellQuoted(event.description)] }
    if failure.fromSpec, let spec = options.spec {
      words += ["--spec", shellQuoted(spec.hasPrefix("-") ? "./" + spec : spec)]
    } else if let invariant = failure.invariant {
      words += ["--invariant", shellQuoted(invariant)]
    }
    return words.joined(separator: " ")
  }

  /// A spec (busted, for `sendingstate test`) that replays the events and asserts the check that
  /// failed; `screenPath` is how the spec names the screen (beside it, or from the project root),
  /// `data` the payload's path, if any.
  ///
  /// What the screen wrote (its error, its ids) reaches the spec only inside string literals, or
  /// in a comment with every control character replaced: a carriage return ends a Lua comment.
  package static func spec(
    for failure: Explorer.Failure, screenPath: String, options: Explorer.Options, state: LuaValue?, data: String? = nil
  ) -> String {
    let fromSpec = failure.fromSpec ? options.spec : nil
    var lines = [
      "-- Found by `sendingstate explore` (seed \(options.seed)): \(LuaSource.commentText(failure.message))",
      fromSpec.map {
        "-- Add this test to \(LuaSource.commentText($0)): the invariants it declares check every step of its screens, so the test "
          + "fails until the screen is fixed; keep it as a regression test then."
      } ?? "-- It fails until the screen is fixed; keep it as a regression test then.",
      "local ss = require \"sendingstate\"",
      "",
      "it(\(LuaSource.quoted("explore: " + (failure.invariant ?? "no script error"))), function()",
    ]
    let opening = (state.map { ", state = " + LuaSource.literal($0) } ?? "") + (data.map { ", data = " + LuaSource.quoted($0) } ?? "")
    lines.append(
      "  local screen = ss.open(\(LuaSource.quoted(screenPath)), { clock = 0, fetch = {}, random_seed = \(Explorer.screenSeed(options.seed))\(opening) })")
    for event in failure.events {
      lines.append("  " + LuaSource.call(event, on: "screen"))
      lines.append("  screen:advance(\(ExploreEvents.number(options.settle)))")
    }
    if let invariant = failure.invariant, fromSpec == nil {
      lines.append("  local state = screen.state")
      // (On lines of its own, as explore runs it: a trailing comment in the invariant stays one.)
      lines.append("  assert((")
      lines.append("    " + invariant)
      lines.append("  ), \(LuaSource.quoted("the invariant '" + invariant + "' does not hold")))")
    }
    lines.append("end)")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A word for a POSIX shell: single-quoted unless it is plain.
  package static func shellQuoted(_ word: String) -> String {
    if !word.isEmpty, word.range(of: "^[A-Za-z0-9_./:=@%+-]+$", options: .regularExpression) != nil { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
