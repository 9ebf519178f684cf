// What the README's state-aware-events snippet uses (scripts/readme-snippets.sh compiles them together).
import SendingStateHeadless

struct Product {
  var id: String
}

enum ProductAction {
  case setFavorite(String, Bool)
}

@MainActor let favoriteSwitch = Switch(id: "favorite")
