import Foundation
import SendingState
import SendingStateHeadless
import Testing

@testable import SendingStateLua

struct CardModel: Codable, Equatable, LuaTableRepresentable {
  var id = ""
  var title = ""
  var price = 0.0
  var favorite = false
  var stock = 0
  static let luaPlan = LuaTablePlan<CardModel> {
    LuaField("id", \.id)
    LuaField("title", \.title)
    LuaField("price", \.price)
    LuaField("favorite", \.favorite)
    LuaField("stock", \.stock)
  }
}

/// Lua returns `{ type = "buy", id = … }`; synthesized Codable reads it (no init(from:)).
enum CardAction: Codable, Equatable {
  case buy(id: String)
  case favorite(id: String, on: Bool)
}

/// A Swift view whose configurer and forwarder are scripts.
@MainActor
final class ProductCard: StackView, Configurable, EventForwardingProvider {
  let title = Label(id: "title")
  let price = Label(id: "price")
  let favorite = Switch(id: "favorite")
  let buy = Button(id: "buy", title: "Buy")
  var script: LuaConfigurer<CardModel>?
  var events: LuaEventForwarder<CardModel, CardAction>?

  init() {
    super.init(id: "card", axis: .vertical)
    [title, price, favorite, buy].forEach(addSubview)
  }

  var configurer: (ProductCard, CardModel) -> Void {
    { card, product in card.script?.configurer()(card, product) }
  }

  var eventForwarder: any EventForwardable {
    events?.forwarder(for: self) ?? SenderGroup {}
  }
}

final class CardActions: ActionHandlingProvider {
  var received: [CardAction] = []
  func handle(action: CardAction) { received.append(action) }
}

func roleFixture(_ name: String) -> String { fixturePath("roles/\(name)") }

@Suite("Script roles bound to Swift types")
@MainActor
struct ScriptRoleTests {
  let tea = CardModel(id: "tea", title: "Green tea", price: 4.5, favorite: false, stock: 3)

  func bridge() throws -> LuaViewBridge { try LuaViewBridge(runtime: try LuaRuntime()) }

  @Test("a Lua configurer runs through view.ss.configure (fast plan and Codable paths)", arguments: [true, false])
  func configurer(fast: Bool) throws {
    let card = ProductCard()
    card.script = try LuaConfigurer<CardModel>(
      path: roleFixture("card_configure.lua"), bridge: try bridge(), coding: fast ? .plan : .codable)
    card.ss.configure(tea)
    #expect(card.title.text == "Green tea" && card.price.text == "4.50" && !card.favorite.isOn)
    #expect(card.script?.lastError == nil)
    #expect(card.ss.state() == tea)
  }

  @Test("the model is read-only; a failing configure writes nothing")
  func configurerReadOnly() throws {
    let card = ProductCard()
    let script = try LuaConfigurer<CardModel>(path: roleFixture("card_configure.lua"), bridge: try bridge(), coding: .plan)
    #expect(throws: ScriptError.self) { try script.configure(card, with: CardModel(id: "x", title: "Gold", price: 500)) }
    do {
      try script.configure(card, with: CardModel(id: "x", title: "Gold", price: 500))
    } catch let error as ScriptError {
      #expect(error.message == "the model is read-only in configure")
      #expect(error.line == 7 && error.chunk?.hasSuffix("card_configure.lua") == true)
      #expect(error.context == "configure (view 'card')")
    }
    #expect(card.title.text == "")  // the title write before the error was dropped
  }

  @Test("unknown properties and wrong types are errors naming them", arguments: [
    ("card_configure_typo.lua", 4, "label has no property 'txt' (properties: alpha, enabled, hidden, id, kind, text)"),
    ("card_configure_wrong_type.lua", 3, "switch.isOn: expected boolean, got string \"yes\""),
  ])
  func configurerErrors(fixture: String, line: Int, message: String) throws {
    let card = ProductCard()
    card.script = try LuaConfigurer<CardModel>(path: roleFixture(fixture), bridge: try bridge(), coding: .plan)
    card.ss.configure(tea)
    let error = try #require(card.script?.lastError)
    #expect(error.line == line && error.message == message)
    #expect(card.title.text == "")
  }

  @Test("a Lua event forwarder: state at event time, typed actions to a Swift handler")
  func forwarder() throws {
    let bridge = try bridge()
    let card = ProductCard()
    card.events = try LuaEventForwarder<CardModel, CardAction>(path: roleFixture("card_events.lua"), bridge: bridge, coding: .plan)
    let actions = CardActions()
    card.ss.addActionHandler(to: actions)
    card.ss.configure(tea)
    card.buy.simulateTap()
    card.ss.configure(CardModel(id: "oolong", title: "Oolong", price: 6))
    card.buy.simulateTap()
    card.favorite.simulateSetOn(true)
    #expect(actions.received == [.buy(id: "tea"), .buy(id: "oolong"), .favorite(id: "oolong", on: true)])
    #expect(card.events?.lastError == nil)
  }

  @Test("a Lua handler changes the Swift store only through validated updates; FIFO dispatch")
  func handler() throws {
    let bridge = try bridge()
    let card = ProductCard()
    card.script = try LuaConfigurer<CardModel>(path: roleFixture("card_configure.lua"), bridge: bridge, coding: .plan)
    card.events = try LuaEventForwarder<CardModel, CardAction>(path: roleFixture("card_events.lua"), bridge: bridge, coding: .plan)
    let store = BindingStore<CardModel, ProductCard>(state: tea)
    store.apply(to: card)
    let handler = try LuaActionHandler<CardAction, CardModel, ProductCard>(
      path: roleFixture("card_handler.lua"), bridge: bridge, store: store, binder: card)
    card.ss.addActionHandler(to: handler)
    var seen: [Int] = []
    let token = store.observe { seen.append($0.stock) }

    card.buy.simulateTap()
    #expect(store.state.stock == 2)
    card.favorite.simulateSetOn(true)
    #expect(store.state.favorite && card.favorite.isOn)

    let raw = try LuaActionHandler<LuaValue, CardModel, ProductCard>(
      path: roleFixture("card_handler.lua"), bridge: bridge, store: store, binder: card)
    try raw.perform(["type": "twice"])
    #expect(store.state.stock == 0)
    // One event (an action and the actions it dispatches) commits once: observers see its end
    // state, never a state the event might still undo.
    #expect(seen == [3, 2, 2, 0])

    // A rejected update: decoding into CardModel fails; nothing changes, no observer runs.
    seen.removeAll()
    #expect(throws: ScriptError.self) { try raw.perform(["type": "corrupt"]) }
    do {
      try raw.perform(["type": "corrupt"])
    } catch let error as ScriptError {
      #expect(error.kind == .typeMismatch)
      #expect(error.message == "state.stock: expected integer, got string \"lots\"")
      #expect(error.line == 8)
    }
    #expect(store.state.stock == 0)
    #expect(seen.isEmpty)
    token.cancel()
  }
}
