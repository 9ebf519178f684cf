import Foundation
import Testing

@testable import SendingStateLua

// Enums with associated values and synthesized Codable (no hand-written init(from:)), read from
// and written to Lua's action shape: `{ type = "case", label = value, unlabelled… }`.

private enum CartAction: Codable, Equatable {
  case clear
  case add(title: String, count: Int)
  case remove(Int)
  case move(Int, to: Int)
  case note(String?, Int)
  case setFilter(type: String)
  case checkout(Address)
}

private struct Address: Codable, Equatable {
  var street: String
  var zip: Int?
}

/// An enum with a case named `type`: `type` cannot name its cases.
private enum Odd: Codable, Equatable {
  case type(String)
  case other
}

/// A struct with a `type` field, and one without: the action shape must not touch them.
private struct Tagged: Codable, Equatable {
  var type: String
  var x: Int
}
private struct Point: Codable, Equatable {
  var x: Int
  var y: Int
}

@Suite("Value bridge: enums in Lua's action shape")
struct EnumActionShapeTests {
  private func decode<T: Decodable>(_ type: T.Type, _ source: String, root: String = "action") throws -> T {
    let runtime = try LuaRuntime()
    return try LuaValueDecoder(rootName: root).decode(type, from: try runtime.evaluate("return " + source)[0])
  }

  private func decodeError<T: Decodable>(_ type: T.Type, _ source: String, root: String = "action") throws -> String {
    do {
      _ = try decode(type, source, root: root)
      Issue.record("expected an error decoding \(source)")
      return ""
    } catch let error as LuaBridgeError {
      return error.description
    }
  }

  @Test("a Lua action decodes into its case: labelled values by name, unlabelled ones by position", arguments: [
    ("{ type = 'add', title = 'Tea', count = 2 }", CartAction.add(title: "Tea", count: 2)),
    ("{ type = 'remove', 3 }", .remove(3)),
    ("{ type = 'move', 1, to = 4 }", .move(1, to: 4)),
    ("{ type = 'clear' }", .clear),
    ("'clear'", .clear),
    ("{ type = 'note', 'hi', 2 }", .note("hi", 2)),
    ("{ type = 'note', _1 = 2 }", .note(nil, 2)),
    ("{ type = 'checkout', { street = 'Main', zip = 1000 } }", .checkout(Address(street: "Main", zip: 1000))),
    // Swift's own keyed shape still decodes, and is what a value labelled `type` uses.
    ("{ add = { title = 'Tea', count = 2 } }", .add(title: "Tea", count: 2)),
    ("{ setFilter = { type = 'all' } }", .setFilter(type: "all")),
  ])
  fileprivate func decodesCases(source: String, expected: CartAction) throws {
    #expect(try decode(CartAction.self, source) == expected)
  }

  @Test("a type that names no case says which, where; a wrong value names its field")
  func clearErrors() throws {
    #expect(
      try decodeError(CartAction.self, "{ type = 'ad', title = 'Tea' }")
        == "action.type: no case 'ad' in CartAction (the action's type must name one of its cases, spelt as in Swift)")
    #expect(
      try decodeError([CartAction].self, "{ 'clear', { type = 'remove', 1 }, { type = 'Remove', count = 2 } }", root: "actions")
        == "actions[3].type: no case 'Remove' in CartAction (the action's type must name one of its cases, spelt as in Swift)")
    #expect(try decodeError(CartAction.self, "{ type = 'add', title = 5, count = 1 }") == "action.title: expected string, got integer 5")
    #expect(try decodeError(CartAction.self, "{ type = 'add', title = 'Tea' }") == "action.count: missing (expected integer)")
    #expect(try decodeError(CartAction.self, "{ type = 'remove' }") == "action._0: missing (expected integer)")
    #expect(try decodeError(CartAction.self, "{ type = 'checkout', { street = 1 } }") == "action._0.street: expected string, got integer 1")
  }

  @Test("a struct whose field a string or a mixed table happens to name is the error it always was")
  func structsNotMistaken() throws {
    struct Filter: Decodable, Equatable {
      var search: String?
      var tag: String?
    }
    #expect(try decodeError(Filter.self, "'search'", root: "filter") == "filter: expected table, got string \"search\"")
    #expect(try decodeError(Point.self, "'x'", root: "p") == "p: expected table, got string \"x\"")
    #expect(
      try decodeError(Point.self, "{ type = 'x', x = 1, y = 2, 7 }", root: "p") == "p: table mixes a list (1 items) with named fields")
  }

  @Test("structs keep their own type field, or ignore one they do not have")
  func structsUntouched() throws {
    #expect(try decode(Tagged.self, "{ type = 'x', x = 1 }") == Tagged(type: "x", x: 1))
    #expect(try decode(Point.self, "{ type = 'point', x = 1, y = 2 }") == Point(x: 1, y: 2))
    #expect(try decode(Point.self, "{ type = 'x', x = 1, y = 2 }") == Point(x: 1, y: 2))
    #expect(try decode([String: Int].self, "{ type = 1, other = 2 }") == ["type": 1, "other": 2])
  }

  @Test("Swift writes cases in the same shape, and reads them back", arguments: [
    (CartAction.add(title: "Tea", count: 2), LuaValue.table(LuaTable(fields: ["type": "add", "title": "Tea", "count": 2]))),
    (.remove(3), .table(LuaTable(sequence: [3], fields: ["type": "remove"]))),
    (.move(1, to: 4), .table(LuaTable(sequence: [1], fields: ["type": "move", "to": 4]))),
    (.clear, .table(LuaTable(fields: ["type": "clear"]))),
    (.note(nil, 2), .table(LuaTable(fields: ["type": "note", "_1": 2]))),
    (.checkout(Address(street: "Main", zip: nil)),
     .table(LuaTable(sequence: [.table(LuaTable(fields: ["street": "Main"]))], fields: ["type": "checkout"]))),
    (.setFilter(type: "all"), .table(LuaTable(fields: ["setFilter": .table(LuaTable(fields: ["type": "all"]))]))),
  ])
  fileprivate func encodesCases(action: CartAction, expected: LuaValue) throws {
    let encoded = try LuaValueEncoder(rootName: "action").encode(action)
    #expect(encoded == expected)
    #expect(try LuaValueDecoder(rootName: "action").decode(CartAction.self, from: encoded) == action)
  }

  @Test("a Lua function reads a Swift case by its type and returns a case Swift decodes")
  func throughLua() throws {
    let runtime = try LuaRuntime()
    let function = try runtime.load(
      """
      local action = ...
      if action.type == "add" then return { type = "move", #action.title, to = action.count } end
      return "clear"
      """)
    let add = try LuaValueEncoder(rootName: "action").encode(CartAction.add(title: "Tea", count: 2))
    let back = try runtime.call(function, with: [add])
    #expect(try LuaValueDecoder(rootName: "action").decode(CartAction.self, from: back[0]) == .move(3, to: 2))
  }

  @Test("an enum with a case named type keeps Swift's keyed shape both ways")
  func caseNamedType() throws {
    let encoded = try LuaValueEncoder().encode(Odd.type("x"))
    #expect(encoded == .table(LuaTable(fields: ["type": .table(LuaTable(fields: ["_0": "x"]))])))
    #expect(try LuaValueDecoder().decode(Odd.self, from: encoded) == .type("x"))
    #expect(try decode(Odd.self, "{ other = {} }") == .other)
  }
}
