import Foundation
import SendingStateLua

/// JSON the user typed or pointed at (`--state`), read with errors that say where.
///
/// ```swift
/// try JSONInput.value(from: "{\"count\": 2}", name: "--state")
/// // error: --state: not valid JSON at line 1, column 11: Invalid value (check quotes, commas and brackets)
/// ```
public enum JSONInput {
  /// `argument` as a value: JSON text, or `@FILE` to read the JSON from a file.
  public static func value(fromArgument argument: String, name: String) throws -> LuaValue {
    guard argument.hasPrefix("@") else { return try value(from: Data(argument.utf8), name: name) }
    let path = String(argument.dropFirst())
    try ScriptPath.check(path, role: "\(name) JSON")
    guard let contents = FileManager.default.contents(atPath: path) else {
      throw ToolError.usage("\(name): cannot read '\(path)'")
    }
    return try value(from: contents, name: "\(name) \(path)")
  }

  /// `data` as a value; a syntax error names its line and column.
  public static func value(from data: Data, name: String) throws -> LuaValue {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      let detail = ((error as NSError).userInfo["NSDebugDescription"] as? String) ?? "\(error)"
      throw ToolError.usage("\(name): not valid JSON \(location(of: detail, in: data)): \(reason(detail)) (check quotes, commas and brackets)")
    }
    do {
      return try JSONDecoder().decode(LuaValue.self, from: data)
    } catch {
      throw ToolError.usage("\(name): JSON that does not fit a Lua value (\(error))")
    }
  }

  /// `at line L, column C` for Foundation's "around character N" (a byte offset), or `at the
  /// end` for an early end of the text.
  static func location(of detail: String, in data: Data) -> String {
    let bytes = [UInt8](data)
    var offset = bytes.count
    if let range = detail.range(of: #"character \d+"#, options: .regularExpression),
      let number = Int(detail[range].dropFirst("character ".count))
    {
      offset = min(number, bytes.count)
    } else if !detail.contains("end of file") {
      return "(\(detail))"
    }
    var line = 1
    var column = 1
    for byte in bytes[..<offset] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return offset >= bytes.count && detail.contains("end of file") ? "at the end (line \(line), column \(column))" : "at line \(line), column \(column)"
  }

  private static func reason(_ detail: String) -> String {
    if detail.contains("end of file") { return "the text ends too early" }
    return detail.replacingOccurrences(of: #" around character \d+\.?"#, with: "", options: .regularExpression)
  }
}
