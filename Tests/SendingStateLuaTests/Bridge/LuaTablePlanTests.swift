import Testing

@testable import SendingStateLua

private struct Seller: LuaTableRepresentable, Equatable {
  var name = ""
  var rating = 0.0
  static let luaPlan = LuaTablePlan<Seller> {
    LuaField("name", \.name)
    LuaField("rating", \.rating)
  }
}

private struct Product: LuaTableRepresentable, Equatable {
  var title = ""
  var count = 0
  var favorite = false
  var note: String? = nil
  var tags: [String] = []
  var seller = Seller()
  var variants: [Seller] = []
  static let luaPlan = LuaTablePlan<Product> {
    LuaField("title", \.title)
    LuaField("count", \.count)
    LuaField("favorite", \.favorite)
    LuaField("note", \.note)
    LuaField("tags", \.tags)
    LuaField(nested: "seller", \.seller)
    LuaField(list: "variants", \.variants) { Seller() }
  }
}

/// Every kind of key path a field may take: stored (read and written through its offset), a
/// stored path through a nested struct, a computed property, and a class's property (both
/// projected as key paths).
private struct Mixed: LuaTableRepresentable, Equatable {
  var name = "a"
  var seller = Seller()
  var cents = 0
  var price: Double {
    get { Double(cents) / 100 }
    set { cents = Int((newValue * 100).rounded()) }
  }
  static let luaPlan = LuaTablePlan<Mixed> {
    LuaField("name", \.name)
    LuaField("sellerName", \.seller.name)
    LuaField("price", \.price)
  }
}

private final class Box: LuaTableRepresentable {
  var label = "x"
  var count = 1
  static let luaPlan = LuaTablePlan<Box> {
    LuaField("label", \.label)
    LuaField("count", \.count)
  }
}

@Suite("Fast typed path: per-type plans with interned keys")
struct LuaTablePlanTests {
  fileprivate let sample = Product(
    title: "Tea", count: 3, favorite: true, note: nil, tags: ["hot", "green"], seller: Seller(name: "Ann", rating: 4.5),
    variants: [Seller(name: "B", rating: 1), Seller(name: "C", rating: 2)])

  @Test("a plan pushes a table Lua reads, and reads it back equal")
  func roundTrip() throws {
    let runtime = try LuaRuntime()
    let table = runtime.makeTable(sample)
    let probe = try runtime.load(
      "local p = ...; return p.title, math.type(p.count), p.favorite, p.note, p.tags[2], p.seller.name, p.variants[2].rating")
    #expect(try runtime.call(probe, with: [try table.value()]) == ["Tea", "integer", true, nil, "green", "Ann", 2.0])
    var back = Product()
    try runtime.read(table, into: &back)
    #expect(back == sample)
  }

  @Test("stored, nested stored, computed and class key paths all push and read back")
  func everyKindOfKeyPath() throws {
    // Stored paths go through their offset; the computed property and the class's fields
    // through their key paths.
    #expect(Mixed.luaPlan.fields.map(\.direct) == [true, true, false])
    #expect(Box.luaPlan.fields.map(\.direct) == [false, false])
    #expect(Product.luaPlan.fields.map(\.direct) == [true, true, true, true, true, false, false])
    let runtime = try LuaRuntime()
    var mixed = Mixed()
    mixed.name = String(repeating: "long name ", count: 20)  // a heap string: its old value is released
    mixed.seller.name = "Ann"
    mixed.price = 12.5
    let table = runtime.makeTable(mixed)
    let probe = try runtime.load("local m = ...; return m.name:sub(1, 9), m.sellerName, m.price")
    #expect(try runtime.call(probe, with: [try table.value()]) == ["long name", "Ann", 12.5])
    let edit = try runtime.load("local m = ...; m.name = 'short'; m.sellerName = 'Bo'; m.price = 3.25; return m")
    let edited = try runtime.makeValue(try runtime.call(edit, with: [try table.value()]).first ?? .nil)
    var back = mixed
    try runtime.read(edited, into: &back)
    #expect(back.name == "short" && back.seller.name == "Bo" && back.cents == 325 && back.seller.rating == 0)

    let box = Box()
    let boxTable = runtime.makeTable(box)
    let bump = try runtime.load("local b = ...; return { label = b.label .. '!', count = b.count + 1 }")
    let bumped = try runtime.makeValue(try runtime.call(bump, with: [try boxTable.value()]).first ?? .nil)
    var target = Box()
    try runtime.read(bumped, into: &target)
    #expect(target.label == "x!" && target.count == 2)
  }

  @Test("a configurer-style call pushes the model through the plan")
  func callWithModel() throws {
    let runtime = try LuaRuntime()
    let describe = try runtime.load("local m = ...; return m.title .. ' x' .. m.count .. ' by ' .. m.seller.name")
    #expect(try runtime.call(describe, with: sample) == "Tea x3 by Ann")
  }

  @Test("reading is all or nothing and names the path")
  func readErrors() throws {
    let runtime = try LuaRuntime()
    let env = try runtime.newEnvironment()
    try runtime.call(
      runtime.load(
        "bad = { title = 'New', count = 1, favorite = false, tags = {}, seller = { name = 'x', rating = 1 }, variants = { { name = 'v', rating = 'bad' } } }; partial = { title = 'x' }",
        environment: env))
    var model = sample
    let badPath = LuaPath(root: "state").appending(field: "variants").appending(index: 1).appending(field: "rating")
    #expect(throws: LuaBridgeError(path: badPath, problem: "expected number, got string")) {
      try runtime.read(try #require(env.field("bad")), into: &model, path: "state")
    }
    #expect(model == sample)
    #expect(throws: LuaBridgeError(path: LuaPath(root: "state").appending(field: "count"), problem: "missing (expected integer)")) {
      try runtime.read(try #require(env.field("partial")), into: &model, path: "state")
    }
    #expect(model == sample)
  }

  @Test("keys are interned once per runtime and plan")
  func internedOnce() throws {
    let runtime = try LuaRuntime()
    for _ in 0..<10 { _ = runtime.makeTable(sample) }
    #expect(runtime.internedKeys.filter { $0 != 0 }.count == 2)  // Product and Seller
  }
}
