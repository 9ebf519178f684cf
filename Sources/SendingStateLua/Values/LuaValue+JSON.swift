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
  ///   or, for text that is not JSON, the problem with its line and column. A key given twice
  ///   in one object is an error too (also when the two are the same text in different Unicode
  ///   forms), as is a number too big for a float.
  public init(json data: Data, root: String = "value", limits: LuaRuntime.Limits = .init()) throws(LuaBridgeError) {
    if let cap = limits.maxStringBytes, data.count > cap {
      throw LuaBridgeError(
        path: LuaPath(root: root), problem: "the JSON is \(data.count) bytes; at most \(cap) are accepted", kind: .tooLarge)
    }
    self = try JSONReader.read(data, root: root, maxDepth: limits.maxDepth, maxNodes: limits.maxNodes)
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
