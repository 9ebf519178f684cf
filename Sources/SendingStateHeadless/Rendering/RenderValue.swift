/// A property value in the render tree.
///
/// ```swift
/// RenderValue.string("Tea").jsonText   // "\"Tea\""
/// RenderValue.number(2.0).jsonText     // "2"
/// ```
public enum RenderValue: Hashable, Sendable {
  /// Text.
  case string(String)
  /// A floating-point number (integral values print without a fraction).
  case number(Double)
  /// An integer.
  case integer(Int)
  /// A flag.
  case bool(Bool)
  /// A list of strings.
  case strings([String])
  /// No value.
  case null

  /// The value as JSON text (also the text form's spelling).
  public var jsonText: String {
    switch self {
    case .string(let text): jsonQuoted(text)
    case .number(let number): formatNumber(number)
    case .integer(let integer): String(integer)
    case .bool(let flag): flag ? "true" : "false"
    case .strings(let list): "[" + list.map(jsonQuoted).joined(separator: ",") + "]"
    case .null: "null"
    }
  }
}

/// `number` in a stable spelling: integral values without a fraction, non-finite as `null`.
func formatNumber(_ number: Double) -> String {
  guard number.isFinite else { return "null" }
  if number == number.rounded(), abs(number) < 1e15 {
    return String(Int64(number))
  }
  return "\(number)"
}

/// `text` as a JSON string literal.
func jsonQuoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case let c where c.value < 0x20:
      out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}
