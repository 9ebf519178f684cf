import Foundation

extension LuaValue {
  /// Decodes JSON into data, within the host's limits: at most
  /// ``LuaRuntime/Limits/maxStringBytes`` of input, ``LuaRuntime/Limits/maxDepth`` nested
  /// arrays or objects and ``LuaRuntime/Limits/maxNodes`` values; numbers must be finite.
  ///
  /// ```swift
  /// let state = try LuaValue(json: Data(#"{"count": 1}"#.utf8), root: "--state")
  /// ```
  ///
  /// - Parameters:
  ///   - data: the JSON text.
  ///   - root: the name of the value in error paths (`payload`, `--state`).
  ///   - limits: the limits to apply.
  /// - Throws: ``LuaBridgeError`` naming the path (`payload.sections[2]…: nested deeper than 64`),
  ///   or, for text that is not JSON, the problem with its line and column when known.
  public init(json data: Data, root: String = "value", limits: LuaRuntime.Limits = .init()) throws(LuaBridgeError) {
    if let cap = limits.maxStringBytes, data.count > cap {
      throw LuaBridgeError(
        path: LuaPath(root: root), problem: "the JSON is \(data.count) bytes; at most \(cap) are accepted", kind: .tooLarge)
    }
    let decoder = JSONDecoder()
    let budget = LuaJSONLimits(root: root, maxDepth: limits.maxDepth, maxNodes: limits.maxNodes)
    decoder.userInfo[LuaJSONLimits.key] = budget
    do {
      self = try decoder.decode(LuaValue.self, from: data)
    } catch let error as LuaBridgeError {
      throw error
    } catch let DecodingError.dataCorrupted(context) {
      throw LuaBridgeError(
        path: LuaJSONLimits.path(context.codingPath, root: root), problem: LuaJSONLimits.describe(context, in: data))
    } catch {
      throw LuaBridgeError(path: LuaPath(root: root), problem: "not valid JSON (\(error.localizedDescription))")
    }
  }
}

/// The limits of one JSON decode, shared through the decoder's `userInfo` (a class, so the
/// node count is shared by every nested decode).
final class LuaJSONLimits: @unchecked Sendable {
  static let key = CodingUserInfoKey(rawValue: "sendingstate.jsonLimits")!

  let root: String
  let maxDepth: Int
  let maxNodes: Int
  private var nodes = 0

  init(root: String, maxDepth: Int, maxNodes: Int) {
    self.root = root
    self.maxDepth = maxDepth
    self.maxNodes = maxNodes
  }

  /// Counts one value.
  func visit(_ codingPath: [any CodingKey]) throws(LuaBridgeError) {
    nodes += 1
    guard nodes <= maxNodes else {
      throw LuaBridgeError.tooLarge(LuaJSONLimits.path(codingPath, root: root), "more than \(maxNodes) values")
    }
  }

  /// Checks an array or object at `codingPath` (its nesting level is one more than its depth).
  func enterTable(_ codingPath: [any CodingKey]) throws(LuaBridgeError) {
    guard codingPath.count + 1 <= maxDepth else {
      throw LuaBridgeError.tooLarge(LuaJSONLimits.path(codingPath, root: root), "nested deeper than \(maxDepth)")
    }
  }

  /// A coding path as a script author reads it: `payload.sections[2].units[1]` (1-based).
  static func path(_ codingPath: [any CodingKey], root: String?) -> LuaPath {
    LuaPath(
      root: root ?? "value",
      components: codingPath.map { key in
        if let index = key.intValue { return .index(index + 1) }
        return .field(key.stringValue)
      })
  }

  /// What is wrong with the text, with its line and column.
  ///
  /// NB: on Linux `JSONDecoder` says only "not valid JSON"; `JSONSerialization` names the
  /// character offset, which this turns into a line and a column.
  static func describe(_ context: DecodingError.Context, in data: Data) -> String {
    if let underlying = context.underlyingError,
      let detail = (underlying as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
    {
      return "not valid JSON (\(detail))"
    }
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
      if let range = detail.range(of: "around character "),
        let offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
      {
        let (line, column) = position(of: offset, in: data)
        let what = detail[..<range.lowerBound].trimmingCharacters(in: .whitespaces).lowercased()
        return "not valid JSON: \(what.isEmpty ? "unexpected text" : what) at line \(line), column \(column)"
      }
      if !detail.isEmpty { return "not valid JSON (\(detail))" }
    }
    return "not valid JSON (\(context.debugDescription))"
  }

  /// The 1-based line and column of byte `offset`.
  static func position(of offset: Int, in data: Data) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for byte in data.prefix(max(0, offset)) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
        column += 1
      }
    }
    return (line, column)
  }
}

/// Any key of a JSON object.
struct LuaJSONKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }
}
