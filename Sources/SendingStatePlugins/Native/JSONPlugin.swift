import Foundation
import SendingStateLua

/// `require "json"`: JSON text to Lua data and back, through the host's bounded reader (the
/// runtime's depth, size and node limits; duplicate keys and non-finite numbers refused).
///
/// ```lua
/// local json = require "json"
/// local data = json.decode('{"count": 2}')   -- { count = 2 }
/// local text = json.encode({ ok = true })    -- '{"ok":true}'
/// ```
public struct JSONPlugin: NativePlugin {
  /// Creates the plugin.
  public init() {}

  /// `json`.
  public var name: String { "json" }
  /// 1.0.0.
  public var version: SemanticVersion { SemanticVersion(1, 0, 0) }
  /// One line.
  public var summary: String { "JSON text to Lua data and back, within the host's limits." }

  /// A lower bound of the bytes of `value`'s JSON text (stops counting past `cap`).
  static func leastBytes(of value: LuaValue, cap: Int) -> Int {
    var total = 0
    var pending = [value]
    while let next = pending.popLast(), total <= cap {
      switch next {
      case .string(let text): total += text.utf8.count + 2
      case .table(let table):
        total += 2
        pending += table.sequence
        for (key, item) in table.fields {
          total += key.utf8.count + 3
          pending.append(item)
        }
      default: total += 1
      }
    }
    return total
  }

  /// The path of the first value in `value` that is not data (a function, a userdata…).
  static func firstNonData(in value: LuaValue, at path: String) -> String? {
    switch value {
    case .opaque(let kind): return "\(path) (a \(kind))"
    case .table(let table):
      for (index, item) in table.sequence.enumerated() {
        if let found = firstNonData(in: item, at: "\(path)[\(index + 1)]") { return found }
      }
      for key in table.fields.keys.sorted() {
        if let found = firstNonData(in: table.fields[key]!, at: "\(path).\(key)") { return found }
      }
      return nil
    default: return nil
    }
  }

  /// `json.encode`, `json.decode`.
  public var modules: [NativeModule] {
    [
      NativeModule(
        name: "json", doc: "JSON text to Lua data and back.",
        functions: [
          NativeFunction(
            name: "encode", signature: "fun(value: any, options: { pretty: boolean? }?): string",
            doc: "JSON text of a value (keys sorted; a table with only 1…n keys is an array)."
          ) { call in
            let value = try call.value(1)
            // The text is at least the strings' bytes and two per other value: refuse before
            // building it (the per-event time limit cannot stop Swift code).
            if let cap = call.runtime.limits.maxStringBytes, Self.leastBytes(of: value, cap: cap) > cap {
              throw ScriptError(kind: .tooLarge, message: "json.encode: the text would be more than maxStringBytes (\(cap)); encode less")
            }
            if let path = Self.firstNonData(in: value, at: "value") {
              throw ScriptError(
                kind: .typeMismatch,
                message: "json.encode: \(path) has no JSON form (only tables, strings, numbers and booleans have one)")
            }
            let pretty = call.count >= 2 && (try? call.value(2))?["pretty"] == .boolean(true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
            let data: Data
            do {
              data = try encoder.encode(value)
            } catch {
              throw ScriptError(kind: .typeMismatch, message: "json.encode: \(value.typeName) values have no JSON form (only tables, strings, numbers, booleans)")
            }
            if let cap = call.runtime.limits.maxStringBytes, data.count > cap {
              throw ScriptError(
                kind: .tooLarge, message: "json.encode: the text would be \(data.count) bytes, more than maxStringBytes (\(cap)); encode less")
            }
            call.push(String(decoding: data, as: UTF8.self))
            return 1
          },
          NativeFunction(
            name: "decode", signature: "fun(text: string): any",
            doc: "The data of JSON text; an error names the line and column of a mistake."
          ) { call in
            let text = try call.string(1)
            do {
              try call.push(try LuaValue(json: Data(text.utf8), root: "json", limits: call.runtime.limits))
            } catch let error as LuaBridgeError {
              throw ScriptError(kind: .runtime, message: "json.decode: \(error.description)")
            }
            return 1
          },
        ])
    ]
  }
}
