// What the README's lua-roles snippet uses (scripts/readme-snippets.sh compiles them together).
import SendingState
import SendingStateHeadless
import SendingStateLua

struct Product: Codable, LuaTableRepresentable {
  var id = ""
  var title = ""
  static let luaPlan = LuaTablePlan<Product> {
    LuaField("id", \.id)
    LuaField("title", \.title)
  }
}

enum CardAction: Codable {
  case buy(id: String)
  case favorite(id: String, on: Bool)
}

final class ProductCard: StackView, Configurable {
  let title = Label(id: "title")
  var configurer: (ProductCard, Product) -> Void { { card, product in card.title.text = product.title } }
}

@MainActor let card = ProductCard(id: "card")
@MainActor let store = BindingStore<Product, ProductCard>(state: Product())
