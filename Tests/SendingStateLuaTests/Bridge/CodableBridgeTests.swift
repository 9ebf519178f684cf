import Foundation
import Testing

@testable import SendingStateLua

// MARK: - Every Codable shape

private enum Flavor: String, Codable, Equatable, CaseIterable { case green, black, oolong }
private enum Size: Int, Codable, Equatable { case small = 1, large = 3 }
private enum Payment: Codable, Equatable {
  case cash
  case card(number: String, expires: Int)
  case voucher(String)
}

private struct Price: Codable, Equatable {
  var amount: Double
  var currency: String
}

private struct Item: Codable, Equatable {
  var name: String
  var quantity: Int
  var price: Price
  var flavor: Flavor
  var size: Size?
  var tags: [String]
  var notes: String?
}

private struct Cart: Codable, Equatable {
  var id: Int64
  var items: [Item]
  var discounts: [String: Double]
  var payment: Payment
  var paid: Bool
  var matrix: [[Int]]
  var small: UInt8
  var ratio: Float
}


private func randomCart(_ rng: inout SplitMix) -> Cart {
  func word() -> String {
    String((0..<Int.random(in: 0...8, using: &rng)).map { _ in "abcxyzé✓ \"\n".randomElement(using: &rng)! })
  }
  let items = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
    Item(
      name: word(), quantity: Int.random(in: -1000...1000, using: &rng),
      price: Price(amount: Double.random(in: -1e6...1e6, using: &rng).rounded() / 100, currency: word()),
      flavor: Flavor.allCases.randomElement(using: &rng)!, size: Bool.random(using: &rng) ? .large : nil,
      tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in word() }, notes: Bool.random(using: &rng) ? word() : nil)
  }
  let payments: [Payment] = [.cash, .card(number: word(), expires: Int.random(in: 0...9999, using: &rng)), .voucher(word())]
  return Cart(
    id: Int64.random(in: .min ... .max, using: &rng), items: items,
    discounts: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...3, using: &rng)).map { ("k\($0)", Double($0) / 4) }),
    payment: payments.randomElement(using: &rng)!, paid: Bool.random(using: &rng),
    matrix: (0..<Int.random(in: 0...3, using: &rng)).map { _ in (0..<Int.random(in: 1...3, using: &rng)).map { $0 } },
    small: UInt8.random(in: 0...255, using: &rng), ratio: Float(Int.random(in: 0...100, using: &rng)) / 8)
}

@Suite("Value bridge: Codable shapes ↔ Lua tables")
struct CodableBridgeTests {
  /// Encodes, pushes into Lua, passes through a Lua function, reads back, decodes.
  private func roundTrip<T: Codable>(_ value: T, through runtime: LuaRuntime, _ identity: LuaRef) throws -> T {
    let encoded = try LuaValueEncoder(rootName: "state").encode(value)
    let back = try runtime.call(identity, with: [encoded])
    return try LuaValueDecoder(rootName: "state").decode(T.self, from: back[0])
  }

  @Test("every shape round-trips through a Lua function unchanged")
  func shapesRoundTrip() throws {
    let runtime = try LuaRuntime()
    let identity = try runtime.load("return ...")
    let cart = Cart(
      id: .max, items: [Item(name: "Tea", quantity: 2, price: Price(amount: 3.5, currency: "EUR"), flavor: .green,
        size: .large, tags: ["hot"], notes: nil)],
      discounts: ["spring": 0.1], payment: .card(number: "4242", expires: 1228), paid: false,
      matrix: [[1, 2], [3]], small: 255, ratio: 0.5)
    #expect(try roundTrip(cart, through: runtime, identity) == cart)
    #expect(try roundTrip(Payment.voucher("V1"), through: runtime, identity) == .voucher("V1"))
    #expect(try roundTrip(Payment.cash, through: runtime, identity) == .cash)
    #expect(try roundTrip([Size.small, .large], through: runtime, identity) == [.small, .large])
    #expect(try roundTrip(Optional<Int>.none, through: runtime, identity) == nil)
  }

  @Test("random models round-trip (property test, 300 cases)")
  func randomRoundTrips() throws {
    let runtime = try LuaRuntime()
    let identity = try runtime.load("local t = ...; return t")
    var rng = SplitMix(state: 0x5EED)
    for _ in 0..<300 {
      let cart = randomCart(&rng)
      #expect(try roundTrip(cart, through: runtime, identity) == cart)
    }
  }

  @Test("Lua sees integers as integers, floats as floats, enums as raw values and cases with values by their type")
  func luaSideShapes() throws {
    let runtime = try LuaRuntime()
    let probe = try runtime.load(
      """
      local item, payment = ...
      return math.type(item.quantity), math.type(item.price.amount), item.flavor, item.size,
        item.notes == nil, payment.type, payment.number, payment.expires, #item.tags
      """)
    let item = Item(name: "x", quantity: 3, price: Price(amount: 2, currency: "EUR"), flavor: .oolong, size: .large,
      tags: ["a", "b"], notes: nil)
    let results = try runtime.call(
      probe, with: [try LuaValueEncoder().encode(item), try LuaValueEncoder().encode(Payment.card(number: "1", expires: 2))])
    #expect(results == ["integer", "float", "oolong", 3, true, "card", "1", 2, 2])
  }

  @Test("mismatches name the field path", arguments: [
    ("return { id = 1, items = { {}, {}, { name = 'x', quantity = 1, price = { amount = 'free', currency = 'E' }, flavor = 'green', tags = {} } }, discounts = {}, payment = { cash = {} }, paid = true, matrix = {}, small = 1, ratio = 1 }",
     "state.items[1].name: missing (expected string)"),
    ("return { id = 1, items = {}, discounts = {}, payment = { cash = {} }, paid = 'yes', matrix = {}, small = 1, ratio = 1 }",
     "state.paid: expected boolean, got string \"yes\""),
    ("return { id = 1.5, items = {}, discounts = {}, payment = { cash = {} }, paid = true, matrix = {}, small = 1, ratio = 1 }",
     "state.id: expected integer, got number 1.5"),
    ("return { id = 1, items = {}, discounts = {}, payment = { cash = {} }, paid = true, matrix = {}, small = 300, ratio = 1 }",
     "state.small: integer 300 does not fit in UInt8 (0…255)"),
    ("return { id = 1, items = {}, discounts = { 1, 2 }, payment = { cash = {} }, paid = true, matrix = {}, small = 1, ratio = 1 }",
     "state.discounts: expected a table with named fields, got a list"),
    ("return { id = 1, items = { x = 1 }, discounts = {}, payment = { cash = {} }, paid = true, matrix = {}, small = 1, ratio = 1 }",
     "state.items: expected a list, got a table with named fields (x)"),
    ("return { id = 1, items = {}, discounts = {}, payment = { cash = {} }, paid = true, matrix = { 1, x = 2 }, small = 1, ratio = 1 }",
     "state.matrix: table mixes a list (1 items) with named fields (x)"),
  ])
  func pathErrors(source: String, expected: String) throws {
    let runtime = try LuaRuntime()
    let value = try runtime.evaluate(source)[0]
    #expect(throws: LuaBridgeError.self) { try LuaValueDecoder(rootName: "state").decode(Cart.self, from: value) }
    do {
      _ = try LuaValueDecoder(rootName: "state").decode(Cart.self, from: value)
    } catch {
      #expect(error.description == expected)
      #expect(error.scriptError.kind == .typeMismatch)
    }
  }

  @Test("a price given as a string names the deep path")
  func deepPath() throws {
    let runtime = try LuaRuntime()
    let value = try runtime.evaluate(
      "return { { name = 'a', quantity = 1, price = { amount = 1, currency = 'E' }, flavor = 'green', tags = {} }, { name = 'b', quantity = 1, price = { amount = 1, currency = 'E' }, flavor = 'green', tags = {} }, { name = 'c', quantity = 1, price = { amount = 'x', currency = 'E' }, flavor = 'green', tags = {} } }"
    )[0]
    do {
      _ = try LuaValueDecoder(rootName: "state.items").decode([Item].self, from: value)
      Issue.record("expected an error")
    } catch {
      #expect(error.description == "state.items[3].price.amount: expected number, got string \"x\"")
    }
  }

  @Test("reading Lua data rejects NaN, non-string keys, holes and cycles with paths")
  func readingErrors() throws {
    let runtime = try LuaRuntime()
    func readError(_ source: String) throws -> String {
      do {
        _ = try runtime.evaluate(source)
        return "no error"
      } catch {
        #expect(error.kind == .typeMismatch)
        return error.message
      }
    }
    #expect(try readError("return { x = 0/0 }") == "result #1.x: NaN is not a valid value")
    #expect(try readError("return { [true] = 1 }") == "result #1: table has a non-string key (boolean); use string keys or a list")
    #expect(try readError("return { [1.5] = 1 }") == "result #1: table has a non-string key (number 1.5); use string keys or a list")
    #expect(try readError("return { 1, 2, [4] = 4 }") == "result #1: list has a hole: key 4 with 3 elements (lists use keys 1…n)")
    #expect(try readError("local t = { a = {} }; t.a.b = t; return t") == "result #1.a.b: the table contains itself (a cycle)")
    // A table referenced twice (not a cycle) is fine.
    #expect(try runtime.evaluate("local s = { 1 }; return { a = s, b = s }")[0]["b"] == [1])
  }

  @Test("encoding rejects integers that do not fit, NaN and nil inside lists")
  func encodingErrors() {
    #expect(throws: LuaBridgeError(path: LuaPath(root: "value"), problem: "integer 18446744073709551615 does not fit in Lua's 64-bit integers")) {
      try LuaValueEncoder().encode(UInt64.max)
    }
    #expect(throws: LuaBridgeError(path: LuaPath(root: "value").appending(field: "amount"), problem: "NaN is not a valid value")) {
      try LuaValueEncoder().encode(Price(amount: .nan, currency: "E"))
    }
    #expect(throws: LuaBridgeError.self) { try LuaValueEncoder().encode([1, nil, 3] as [Int?]) }
  }

  @Test("LuaValue is Codable as JSON")
  func luaValueJSON() throws {
    let value: LuaValue = ["title": "Tea", "count": 2, "tags": ["a", "b"], "price": 2.5, "on": true]
    let data = try JSONEncoder().encode(value)
    #expect(try JSONDecoder().decode(LuaValue.self, from: data) == value)
  }
}
