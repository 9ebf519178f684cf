import Foundation
import SendingStateLua

/// JSON the user typed or pointed at (`--state`), read with errors that say where.
///
/// ```swift
/// try JSONInput.value(from: "{\"count\": 2}", name: "--state")
/// // error: --state: not valid JSON at line 1, column 11: unexpected 'x' where a value should be (check quotes, commas and brackets)
/// ```
public enum JSONInput {
  /// `argument` as a value: JSON text, or `@FILE` to read the JSON from a file.
  public static func value(fromArgument argument: String, name: String) throws -> LuaValue {
    guard argument.hasPrefix("@") else { return try value(from: Data(argument.utf8), name: name) }
    let path = String(argument.dropFirst())
    try ScriptPath.check(path, role: "\(name) JSON")
    return try value(from: Data(try FileInput.bytes(path, what: "\(name) JSON")), name: "\(name) \(path)")
  }

  /// `data` as a value, within the host's default limits; a syntax error names its line and
  /// column.
  public static func value(from data: Data, name: String) throws -> LuaValue {
    do {
      return try LuaValue(json: data, root: name)
    } catch {
      let hint = error.problem.hasPrefix("not valid JSON") ? " (check quotes, commas and brackets)" : ""
      throw ToolError.usage("\(error)\(hint)")
    }
  }
}
