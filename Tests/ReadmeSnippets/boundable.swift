// What the README's boundable snippet uses (scripts/readme-snippets.sh compiles them together).
import SendingState
import SendingStateHeadless

struct Product: Sendable {
  var title: String
}

final class ProductCell: View, Configurable {
  let title = Label(id: "title")
  var configurer: (ProductCell, Product) -> Void { { cell, product in cell.title.text = product.title } }
}

final class TitleCell: View, Configurable {
  let title = Label(id: "title")
  var configurer: (TitleCell, String) -> Void { { cell, text in cell.title.text = text } }
}

struct TitleViewModel: Boundable {
  var contentData: String?
  var binderType: TitleCell.Type { TitleCell.self }
}

let tea = Product(title: "Tea")
@MainActor let cells: [View] = [TitleCell(), ProductCell()]
