import Testing

@testable import SendingStateLua

private final class Card {
  var title = "start"
  var count = 0
  var ratio = 0.5
  var visible = true
  let id: String
  nonisolated(unsafe) static var deinits = 0
  init(id: String) { self.id = id }
  deinit { Card.deinits += 1 }
}

private let cardType = LuaObjectType<Card>("Card")
  .property("title", \.title)
  .property("count", \.count)
  .property("ratio", \.ratio)
  .property("visible", \.visible)
  .property("id", get: { card, out in out.push(card.id) })

// NB: serialized: the lifetime test counts deinits in a static counter the other tests also move.
@Suite("Swift objects in Lua: typed userdata", .serialized)
struct LuaObjectTypeTests {
  @Test("properties read and write through typed accessors")
  func properties() throws {
    let runtime = try LuaRuntime()
    let card = Card(id: "c1")
    let handle = runtime.makeObject(card, as: cardType)
    let script = try runtime.load(
      "local c = ...; c.title = c.title .. '!'; c.count = c.count + 2; c.ratio = 1.5; c.visible = false; return c.id, tostring(c)")
    let results = try runtime.call(script, context: nil, pushArguments: { stack in
      stack.push(reference: handle.reference)
      return 1
    }) { stack, count throws(LuaBridgeError) in
      [try stack.value(at: -2, path: LuaPath(root: "r")), try stack.value(at: -1, path: LuaPath(root: "r"))]
    }
    #expect(results == ["c1", "Card"])
    #expect(card.title == "start!" && card.count == 2 && card.ratio == 1.5 && !card.visible)
  }

  @Test("unknown properties, read-only ones and wrong types are errors naming them")
  func errors() throws {
    let runtime = try LuaRuntime()
    let env = try runtime.newEnvironment()
    env.setField("card", to: runtime.makeObject(Card(id: "c"), as: cardType))
    func failure(_ source: String) -> ScriptError? {
      do {
        _ = try runtime.call(try runtime.load(source, chunkName: "card.lua", environment: env))
        return nil
      } catch { return error }
    }
    let unknown = try #require(failure("card.titel = 'x'"))
    #expect(unknown.message == "Card has no property 'titel' (properties: count, id, ratio, title, visible)")
    #expect(unknown.line == 1 && unknown.chunk == "card.lua")
    let readOnly = try #require(failure("card.id = 'other'"))
    #expect(readOnly.message == "property 'id' of Card is read-only")
    let wrongType = try #require(failure("\ncard.count = 'many'"))
    #expect(wrongType.kind == .typeMismatch)
    #expect(wrongType.message == "Card.count: expected integer, got string")
    #expect(wrongType.line == 2)
    let fraction = try #require(failure("card.count = 1.5"))
    #expect(fraction.message == "Card.count: expected integer, got number")
    #expect(try runtime.call(try runtime.load("return getmetatable(card)", environment: env)) == ["locked"])
    #expect(failure("setmetatable(card, {})")?.message.contains("table expected, got Card") == true)
  }

  @Test("objects are released after collection, exactly once, and when the runtime closes")
  func lifetime() throws {
    Card.deinits = 0
    weak var collected: Card?
    weak var heldUntilClose: Card?
    var runtime: LuaRuntime? = try LuaRuntime()
    var keeper: LuaRef?
    do {
      let a = Card(id: "a")
      let b = Card(id: "b")
      collected = a
      heldUntilClose = b
      _ = runtime?.makeObject(a, as: cardType)  // reference dropped at once
      keeper = runtime?.makeObject(b, as: cardType)
    }
    runtime?.collectGarbage()
    #expect(collected == nil)
    #expect(heldUntilClose != nil)
    #expect(Card.deinits == 1)
    #expect(keeper != nil)
    keeper = nil
    runtime = nil
    #expect(heldUntilClose == nil)
    #expect(Card.deinits == 2)
  }

  @Test("a type serves several runtimes, each with its own metatable")
  func typeInSeveralRuntimes() throws {
    let first = try LuaRuntime()
    let second = try LuaRuntime()
    let a = Card(id: "a")
    let b = Card(id: "b")
    let env1 = try first.newEnvironment()
    env1.setField("c", to: first.makeObject(a, as: cardType))
    let env2 = try second.newEnvironment()
    env2.setField("c", to: second.makeObject(b, as: cardType))
    try first.call(try first.load("c.title = 'one'", environment: env1))
    try second.call(try second.load("c.title = 'two'", environment: env2))
    #expect(a.title == "one" && b.title == "two")
  }
}
