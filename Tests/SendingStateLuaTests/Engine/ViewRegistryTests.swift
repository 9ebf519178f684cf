import Foundation
import SendingStateHeadless
import Testing

@testable import SendingStateLua

/// The view registry is the one description of view properties: the render tree of a Lua
/// screen comes from it, in Lua's conventions, while the headless views keep their own terms.
@Suite("View registry: one description of view properties, the render tree included")
@MainActor
struct ViewRegistryTests {
  static let source = """
    return {
      state = { items = { "a", "b", "c" } },
      layout = function(ui)
        return ui.stack { id = "root",
          ui.segmented { id = "sort", segments = { "Name", "Price" }, selectedIndex = 2 },
          ui.list { id = "items", visibleRows = 2,
            row = function(ui) return ui.label { id = "name" } end,
            configure = function(row, item) row.name.text = item end },
        }
      end,
      configure = function(view, state) view.items.rows = state.items end,
    }
    """

  func open() throws -> LuaScreen {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString).lua").path
    try Self.source.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }  // (read when opened)
    return try LuaScreen(path: path)
  }

  @Test("a Lua screen's tree counts from 1 (selection, first row, row index); the headless views' own tree from 0")
  func conventionsPerRoom() throws {
    let screen = try open()
    _ = try screen.row("items", 3)  // scrolls: rows 2 and 3 show
    #expect(
      screen.renderTree().text == """
        stack#root axis="vertical" spacing=0
          segmented#sort segments=["Name","Price"] selectedIndex=2 enabled=true
          list#items rows=3 first=2 visible=2
            row index=2
              label#name text="b"
            row index=3
              label#name text="c"
        """)
    #expect(
      screen.root.renderTree().text == """
        stack#root axis="vertical" spacing=0
          segmented#sort segments=["Name","Price"] selectedIndex=1 enabled=true selected=false
          list#items rows=3 first=1 visible=2
            row index=1
              label#name text="b"
            row index=2
              label#name text="c"
        """)
  }

  @Test("a view the registry does not describe (a Swift unit's own) shows its own properties, and never traps")
  func unknownKinds() {
    final class Gauge: View {
      override var kind: String { "gauge" }
      override var renderProperties: [RenderProperty] { [.init("level", .integer(7))] }
    }
    // Calls itself a label without being one: the registry's label properties would not apply.
    final class Impostor: View {
      override var kind: String { "label" }
      override var renderProperties: [RenderProperty] { [.init("glyph", .string("★"))] }
    }
    // A subclass that keeps the name "view" has properties of its own too.
    final class Badge: View {
      override var renderProperties: [RenderProperty] { [.init("count", .integer(3))] }
    }
    // A real label's subclass is a label.
    final class Title: Label {}
    let root = StackView(id: "root")
    let gauge = Gauge(id: "g")
    gauge.isHidden = true
    root.addSubview(gauge)
    root.addSubview(Impostor(id: "i"))
    root.addSubview(Badge(id: "b"))
    root.addSubview(Title(id: "t", text: "Tea"))
    #expect(
      ViewRegistry.renderTree(of: root).text == """
        stack#root axis="vertical" spacing=0
          gauge#g level=7 hidden=true
          label#i glyph="★"
          view#b count=3
          label#t text="Tea"
        """)
    #expect(ViewRegistry.description(of: Impostor()).name == "view")
  }

  @Test("what only the tree shows is not a property scripts can read (no copy of it in Lua to go stale)")
  func shownOnlyIsNotScripted() throws {
    let list = try #require(ViewRegistry.byName["list"])
    #expect(list.property("first") == nil && list.property("visible") == nil)
    #expect(list.renderOrder.map(\.name).contains("first"))
    let screen = try open()
    let error = #expect(throws: ScreenUsageError.self) { try screen.property("first", of: "items") }
    #expect(error.map { "\($0)" }?.contains("has no property 'first'") == true)
  }
}
