import Foundation
import SendingStateLua

/// Lua source written by our tools (the specs `explore` and `run --record` write): values as
/// literals, strings quoted with every control character escaped, EVENTs as driver calls,
/// comments that no character a screen wrote can end.
///
/// ```swift
/// LuaSource.call(.tap("plus"), on: "screen")  // screen:tap("plus")
/// ```
package enum LuaSource {
  /// The driver call an EVENT is in a spec: `screen:tap("plus")`, `screen:row("items", 2):type("q", "tea")`.
  package static func call(_ event: EventCommand, on driver: String) -> String {
    switch event {
    case .tap(let id): return "\(driver):tap(\(quoted(id)))"
    case .send(let id, let name): return "\(driver):send(\(quoted(id)), \(quoted(name)))"
    case .set(let id, let value): return "\(driver):set(\(quoted(id)), \(literal(EventCommand.value(value))))"
    case .type(let id, let text): return "\(driver):type(\(quoted(id)), \(quoted(text)))"
    case .gesture(let id, let kind, let parameters):
      let fields = parameters.sorted { $0.key < $1.key }.map { "\(key($0.key)) = \(literal(EventCommand.value($0.value)))" }
      let table = fields.isEmpty ? "" : ", { " + fields.joined(separator: ", ") + " }"
      return "\(driver):gesture(\(quoted(id)), \(quoted(kind))\(table))"
    case .row(let list, let index, let inner): return call(inner, on: "\(driver):row(\(quoted(list)), \(index))")
    }
  }

  /// `value` as Lua source (tables with identifier keys as fields, others bracketed).
  package static func literal(_ value: LuaValue) -> String {
    switch value {
    case .nil, .opaque: return "nil"
    case .boolean(let flag): return flag ? "true" : "false"
    // (-9223372036854775808 reads as a float in Lua: the smallest integer has a name.)
    case .integer(let integer): return integer == .min ? "math.mininteger" : String(integer)
    case .number(let number): return number.isFinite ? "\(number)" : (number.isNaN ? "0/0" : (number > 0 ? "math.huge" : "-math.huge"))
    case .string(let text): return quoted(text)
    case .table(let table):
      var parts = table.sequence.map(literal)
      for name in table.fields.keys.sorted() {
        parts.append("\(key(name)) = \(literal(table.fields[name]!))")
      }
      return "{ " + parts.joined(separator: ", ") + " }"
    }
  }

  /// Characters a reader of the spec would not see or that reorder what they see (C1 controls,
  /// bidi marks and overrides, line and paragraph separators): written as `\u{…}` escapes, so
  /// a string a screen chose cannot make the spec read other than it runs.
  static func invisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x80...0x9F, 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF: return true
    default: return false
    }
  }

  /// A table key as Lua source: `name` when it is an identifier, `["a b"]` otherwise (a key
  /// a screen or a client chose is never source text).
  package static func key(_ name: String) -> String {
    isIdentifier(name) ? name : "[\(quoted(name))]"
  }

  /// Whether `name` is a Lua name: ASCII letters, digits and `_`, not starting with a digit,
  /// not a keyword. (Checked byte by byte: a pattern's `$` would let a final line break pass.)
  package static func isIdentifier(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard let first = bytes.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
    let allowed = bytes.allSatisfy { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
    return allowed && !keywords.contains(name)
  }

  /// Lua's reserved words (never bare keys).
  package static let keywords: Set<String> = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil", "not",
    "or", "repeat", "return", "then", "true", "until", "while",
  ]

  /// A Lua string literal: quotes, backslashes and control characters escaped.
  package static func quoted(_ text: String) -> String {
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
        } else if invisible(scalar) {
          out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// The first line of `text` for a Lua comment: every control character (CR and NEL too) and
  /// every invisible one (``invisible(_:)``) a space, cut at 300 characters.
  package static func commentText(_ text: String) -> String {
    let line = text.unicodeScalars.prefix { $0 != "\n" }
    var out = ""
    for scalar in line.prefix(300) {
      let control = scalar.value < 0x20 || scalar.value == 0x7F || invisible(scalar)
      out.unicodeScalars.append(control ? " " : scalar)
    }
    return out
  }
}
