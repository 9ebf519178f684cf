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
      "-- Found by `sendingstate explore` (seed \(options.seed)): \(commentText(failure.message))",
      fromSpec.map {
        "-- Add this test to \(commentText($0)): the invariants it declares check every step of its screens, so the test "
          + "fails until the screen is fixed; keep it as a regression test then."
      } ?? "-- It fails until the screen is fixed; keep it as a regression test then.",
      "local ss = require \"sendingstate\"",
      "",
      "it(\(luaQuoted("explore: " + (failure.invariant ?? "no script error"))), function()",
    ]
    let opening = (state.map { ", state = " + luaLiteral($0) } ?? "") + (data.map { ", data = " + luaQuoted($0) } ?? "")
    lines.append(
      "  local screen = ss.open(\(luaQuoted(screenPath)), { clock = 0, fetch = {}, random_seed = \(Explorer.screenSeed(options.seed))\(opening) })")
    for event in failure.events {
      lines.append("  " + luaCall(event, on: "screen"))
      lines.append("  screen:advance(\(ExploreEvents.number(options.settle)))")
    }
    if let invariant = failure.invariant, fromSpec == nil {
      lines.append("  local state = screen.state")
      // (On lines of its own, as explore runs it: a trailing comment in the invariant stays one.)
      lines.append("  assert((")
      lines.append("    " + invariant)
      lines.append("  ), \(luaQuoted("the invariant '" + invariant + "' does not hold")))")
    }
    lines.append("end)")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The driver call an EVENT is in a spec: `screen:tap("plus")`, `screen:row("items", 2):type("q", "tea")`.
  static func luaCall(_ event: EventCommand, on driver: String) -> String {
    switch event {
    case .tap(let id): return "\(driver):tap(\(luaQuoted(id)))"
    case .send(let id, let name): return "\(driver):send(\(luaQuoted(id)), \(luaQuoted(name)))"
    case .set(let id, let value): return "\(driver):set(\(luaQuoted(id)), \(luaLiteral(EventCommand.value(value))))"
    case .type(let id, let text): return "\(driver):type(\(luaQuoted(id)), \(luaQuoted(text)))"
    case .gesture(let id, let kind, let parameters):
      let fields = parameters.sorted { $0.key < $1.key }.map { "\($0.key) = \(luaLiteral(EventCommand.value($0.value)))" }
      let table = fields.isEmpty ? "" : ", { " + fields.joined(separator: ", ") + " }"
      return "\(driver):gesture(\(luaQuoted(id)), \(luaQuoted(kind))\(table))"
    case .row(let list, let index, let inner): return luaCall(inner, on: "\(driver):row(\(luaQuoted(list)), \(index))")
    }
  }

  /// `value` as Lua source (tables with identifier keys as fields, others bracketed).
  static func luaLiteral(_ value: LuaValue) -> String {
    switch value {
    case .nil, .opaque: return "nil"
    case .boolean(let flag): return flag ? "true" : "false"
    case .integer(let integer): return String(integer)
    case .number(let number): return number.isFinite ? "\(number)" : (number.isNaN ? "0/0" : (number > 0 ? "math.huge" : "-math.huge"))
    case .string(let text): return luaQuoted(text)
    case .table(let table):
      var parts = table.sequence.map(luaLiteral)
      for key in table.fields.keys.sorted() {
        let name = key.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil && !luaKeywords.contains(key)
          ? key : "[\(luaQuoted(key))]"
        parts.append("\(name) = \(luaLiteral(table.fields[key]!))")
      }
      return "{ " + parts.joined(separator: ", ") + " }"
    }
  }

  static let luaKeywords: Set<String> = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil", "not",
    "or", "repeat", "return", "then", "true", "until", "while",
  ]

  /// A Lua string literal: quotes, backslashes and control characters escaped.
  static func luaQuoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += String(format: "\\%03d", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// A word for a POSIX shell: single-quoted unless it is plain.
  static func shellQuoted(_ word: String) -> String {
    if !word.isEmpty, word.range(of: "^[A-Za-z0-9_./:=@%+-]+$", options: .regularExpression) != nil { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// The first line of `text` for a Lua comment: every control character (CR and NEL too) a
  /// space, cut at 300 characters.
  static func commentText(_ text: String) -> String {
    let line = text.unicodeScalars.prefix { $0 != "\n" }
    var out = ""
    for scalar in line.prefix(300) {
      let control = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
      out.unicodeScalars.append(control ? " " : scalar)
    }
    return out
  }
}
