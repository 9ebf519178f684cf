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
