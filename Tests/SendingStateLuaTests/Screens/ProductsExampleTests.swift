import SendingState
import SendingStateHeadless
import Testing

@testable import SendingStateLua

@Suite("examples/products: lists, cell reuse, state-aware row events")
@MainActor
struct ProductsExampleTests {
  func open() throws -> (LuaScreen, ListView) {
    let screen = try LuaScreen(path: examplePath("products/products.lua"))
    return (screen, try #require(try screen.view("items") as? ListView))
  }

  @Test("rows are configured with their items; only a window of rows exists")
  func rowsConfigured() throws {
    let (screen, list) = try open()
    #expect(list.numberOfRows == 12)
    #expect(list.visibleRows.count == 4)
    #expect(list.createdRowCount == 4)
    let tree = list.renderTree()
    #expect(tree.children.first?.node(withID: "name")?[property: "text"] == .string("Green tea"))
    #expect(tree.children.last?.node(withID: "price")?[property: "text"] == .string("7.80"))  // row 4: White tea
    #expect(screen.state["items"][3]["name"] == "Oolong")
  }

  @Test("a favorite toggle in row 2 sends the row's item (state-aware) and updates the state")
  func favoriteToggle() throws {
    let (screen, _) = try open()
    let step = try screen.row("items", 2).set("favorite", true)
    #expect(step.actions == [["type": "favorite", "id": "black", "on": true]])
    #expect(screen.state["items"][2]["favorite"] == true)
    #expect(screen.state["items"][1]["favorite"] == false)
    #expect((try screen.view("summary") as? Label)?.text == "1 favorites, total 0.00")
  }

  @Test("the quantity slider sends its value; the summary follows")
  func quantitySlider() throws {
    let (screen, _) = try open()
    try screen.row("items", 1).set("quantity", 2)
    try screen.row("items", 3).set("quantity", 1)
    #expect(screen.state["items"][1]["quantity"] == 2)
    #expect((try screen.view("summary") as? Label)?.text == "0 favorites, total 15.20")
  }

  @Test("scrolling reuses rows, and reused rows deliver their new item")
  func reuse() throws {
    let (screen, list) = try open()
    let step = try screen.row("items", 10).set("favorite", true)  // scrolls row 10 into view
    #expect(step.actions == [["type": "favorite", "id": "jasmine", "on": true]])
    #expect(list.createdRowCount == 4)
    #expect(list.visibleRows.contains { $0.reuseCount > 0 })
    #expect(screen.state["items"][10]["favorite"] == true)
    let reused = try #require(list.row(at: 9))
    #expect(reused.renderTree().node(withID: "favorite")?[property: "isOn"] == .bool(true))
  }

  @Test("row ids are local to rows; unknown ones are usage errors")
  func rowUsage() throws {
    let (screen, _) = try open()
    #expect(throws: ScreenUsageError.self) { try screen.row("items", 2).tap("nope") }
    #expect(throws: ScreenUsageError.rowOutOfRange("items", index: 13, count: 12)) { try screen.row("items", 13) }
    #expect(throws: ScreenUsageError.notAList("title")) { try screen.row("title", 1) }
  }
}

@Suite("Screens release their Lua state")
@MainActor
struct ScreenLifetimeTests {
  @Test("a dropped screen frees its runtime, also with list rows and server-driven units", arguments: [
    "products/products.lua", "shop/shop.lua", "counter/counter.lua",
  ])
  func runtimeIsReleased(example: String) async throws {
    weak var runtime: LuaRuntime?
    weak var root: View?
    do {
      let payload = try await ServerPayload.load(from: examplePath("shop/payload.json"))
      let screen = try LuaScreen(path: examplePath(example), options: .init(data: payload))
      runtime = screen.runtime
      root = screen.root
      if example.hasPrefix("products") { try screen.row("items", 2).set("favorite", true) }
      if example.hasPrefix("shop") { try screen.tap("matcha.add") }
    }
    #expect(runtime == nil)
    #expect(root == nil)
  }
}
