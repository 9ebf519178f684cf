import Foundation
import Testing

@testable import SendingStateLua

/// The JSON reader behind ``LuaValue/init(json:root:limits:)``, against Foundation's
/// `JSONSerialization` as the oracle for what is and is not JSON.
@Suite("JSON reader: agrees with JSONSerialization, keeps integers, refuses keys that would collapse")
struct JSONReaderTests {
  /// Foundation's reading of `text`, as data (numbers compared by value).
  static func oracle(_ text: String) throws -> LuaValue {
    func convert(_ object: Any) -> LuaValue {
      switch object {
      case is NSNull: return .nil
      case let number as NSNumber:
        if String(cString: number.objCType) == "c" { return .boolean(number.boolValue) }
        return .number(number.doubleValue)
      case let text as String: return .string(text)
      case let list as [Any]: return .table(LuaTable(sequence: list.map(convert)))
      case let object as [String: Any]:
        return .table(LuaTable(fields: object.compactMapValues { value in
          let converted = convert(value)
          return converted == .nil ? nil : converted
        }))
      default: return .opaque("\(type(of: object))")
      }
    }
    return convert(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
  }

  /// `value` with every integer as a float, to compare with the oracle.
  static func numbersAsFloats(_ value: LuaValue) -> LuaValue {
    switch value {
    case .integer(let integer): return .number(Double(integer))
    case .table(let table):
      return .table(LuaTable(sequence: table.sequence.map(numbersAsFloats), fields: table.fields.mapValues(numbersAsFloats)))
    default: return value
    }
  }

  static let valid = [
    "0", "-0", "12", "-3.5", "1e3", "2E-2", "0.5e+1", "true", "false", "null", #""""#,
    #""a\"b\\c\/d\b\f\n\r\t""#, #""\u00e9\u4e2d\ud83d\ude00""#, "\"caf\u{E9} \u{1F600}\"",
    "[]", "{}", " [ 1 , 2 , [ 3 , { } ] ] ", #"{"a": {"b": [true, false, null]}, "c": "d"}"#,
    "\u{FEFF}[1]", "\n\t\r [\n1\n]\n", "9223372036854775807", "-9223372036854775808",
  ]

  @Test("valid JSON reads as Foundation reads it", arguments: valid)
  func agreesOnValid(_ text: String) throws {
    let ours = try LuaValue(json: Data(text.utf8))
    // Foundation does not skip a byte-order mark in a String's UTF-8.
    let oracle = try Self.oracle(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
    #expect(Self.numbersAsFloats(ours) == Self.numbersAsFloats(oracle))
  }

  static let invalid = [
    "", " ", "[", "]", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{a: 1}", "01", "-", "1.",
    ".5", "1e", "+1", "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12\"", "\"a\u{01}b\"", "[1]x", "NaN",
    "Infinity", "'a'",
  ]

  @Test("text that is not JSON is refused, as Foundation refuses it, with a line and column", arguments: invalid)
  func agreesOnInvalid(_ text: String) throws {
    #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) }
    let error = #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data(text.utf8), root: "body") }
    #expect(error?.description.hasPrefix("body: not valid JSON at ") == true, "\(String(describing: error))")
    #expect(error?.description.contains("line 1, column ") == true)
  }

  @Test("trailing commas are refused (RFC 8259; Foundation accepts them)")
  func trailingCommas() throws {
    let list = #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data("[1,]".utf8)) }
    #expect(list?.description == "value: not valid JSON at line 1, column 4: unexpected ']' where a value should be")
    #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data(#"{"a":1,}"#.utf8)) }
  }

  @Test("syntax errors name the line and column of the problem, or say the text ended early")
  func positions() throws {
    let bad = #expect(throws: LuaBridgeError.self) {
      try LuaValue(json: Data("{\n  \"a\": 1,\n  \"b\": x\n}".utf8), root: "--state")
    }
    #expect(bad?.description == "--state: not valid JSON at line 3, column 8: unexpected 'x' where a value should be")
    let short = #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data("{\"é\": [1".utf8), root: "p") }
    #expect(
      short?.description
        == "p: not valid JSON at the end (line 1, column 9): the text ends too early (expected ',' or ']' after an array element, found the end of the text)")
  }

  @Test("whole numbers are integers however written; others and those past Int64 are floats; past Double, an error")
  func numbers() throws {
    #expect(try LuaValue(json: Data("[1, 1.0, 1e2, -7, -0.0, 0.5, 9223372036854775808]".utf8))
      == [.integer(1), .integer(1), .integer(100), .integer(-7), .integer(0), .number(0.5), .number(9_223_372_036_854_775_808)])
    let huge = #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data(#"{"a": [1e400]}"#.utf8), root: "state") }
    #expect(huge?.description == "state.a[1]: the number 1e400 is too big (numbers must be finite)")
  }

  @Test("escapes: surrogate pairs join; a lone surrogate, an unknown escape or bytes that are not UTF-8 are errors")
  func escapes() throws {
    #expect(try LuaValue(json: Data(#""\ud83d\ude00 \u00e9""#.utf8)) == .string("\u{1F600} \u{E9}"))
    for text in [#""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\q""#] {
      let error = #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data(text.utf8)) }
      #expect(error?.description.contains("column 2") == true, "\(text): \(String(describing: error))")
    }
    let notUTF8 = #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data([0x22, 0xFF, 0x22])) }
    #expect(notUTF8?.problem.contains("not valid UTF-8") == true)
  }

  @Test("a key given twice, or twice in different Unicode forms, is refused where the second one starts")
  func duplicateKeys() throws {
    let twice = #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data(#"{"a": 1, "a": 2}"#.utf8)) }
    #expect(twice?.description == #"value: not valid JSON at line 1, column 10: the key "a" appears twice in one object"#)
    // "é" as one scalar and as "e" + a combining accent: one key to Swift, two to Lua.
    let forms = #expect(throws: LuaBridgeError.self) {
      try LuaValue(json: Data("{\"cart\": {\"\u{E9}\": 1, \"e\u{301}\": 2}}".utf8))
    }
    #expect(forms?.problem.contains("different Unicode form") == true)
    // A null field still counts as given.
    #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data(#"{"a": null, "a": 1}"#.utf8)) }
    #expect(try LuaValue(json: Data(#"{"a": null, "b": [null, 1]}"#.utf8)) == ["b": [.nil, 1]])
  }

  @Test("deep chains read in one pass: 15,000 chains 64 deep (with the outer list) within the default limits")
  func deepChains() throws {
    // Through Decodable this took 95 s (every failed type probe built an error with the whole
    // coding path); it must now finish like any other 2 MB of JSON. Not timed: the suite's
    // time limit catches a regression of that size.
    let chain = String(repeating: #"{"a":"#, count: 62) + "[1]" + String(repeating: "}", count: 62)
    let text = "[" + Array(repeating: chain, count: 15_000).joined(separator: ",") + "]"
    let value = try LuaValue(json: Data(text.utf8))
    guard case .table(let table) = value else { Issue.record("not a table"); return }
    #expect(table.sequence.count == 15_000)
  }
}
