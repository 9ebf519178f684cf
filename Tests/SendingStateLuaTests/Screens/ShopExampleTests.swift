import Foundation
import SendingState
import SendingStateHeadless
import SendingStateTestSupport
import Testing

@testable import SendingStateLua

@Suite("examples/shop: server-driven sections and units")
@MainActor
struct ShopExampleTests {
  func open(swiftUnits: [String: @MainActor @Sendable (ServerUnit) -> View] = [:]) async throws -> LuaScreen {
    let payload = try await ServerPayload.load(from: examplePath("shop/payload.json"))
    return try LuaScreen(path: examplePath("shop/shop.lua"), options: .init(data: payload, swiftUnits: swiftUnits))
  }

  @Test("the payload decodes onto the core's server-driven contracts")
  func payload() async throws {
    let payload = try await ServerPayload.load(from: examplePath("shop/payload.json"))
    let sections: [any ServerStateSectionRepresentable] = payload.sections
    #expect(sections.map(\.sectionId) == ["hero", "catalog"])
    #expect(sections[1].units.map(\.unitType) == ["product", "product", "video", "product"])
    #expect((sections[1].units[3].unitData as? LuaValue)?["name"] == "Oolong")  // flat unit: data is the unit
    #expect(try ServerPayload(value: [[["unitType": "banner", "title": "x"]]]).sections[0].sectionId == nil)
    #expect(throws: ScriptError.self) { try ServerPayload(value: ["sections": [["units": [["title": "no type"]]]]]) }
  }

  @Test("units render with Lua renderers; an unknown type renders a placeholder and a warning")
  func rendering() async throws {
    let screen = try await open()
    let tree = screen.renderTree()
    #expect(tree.node(withID: "hero")?.children.first?[property: "type"] == .string("banner"))
    #expect(tree.node(withID: "matcha")?.node(withID: "price")?[property: "text"] == .string("9.90"))
    #expect(tree.node(withID: "video1")?.node(withID: "placeholder")?[property: "text"] == .string("unsupported unit 'video'"))
    #expect(screen.warnings == ["payload section 2, unit 3: unknown unit type 'video' (known: banner, product); rendered a placeholder"])
  }

  @Test("unit events receive the unit's data and reach the screen's handler; units follow the state")
  func events() async throws {
    let screen = try await open()
    let step = try screen.tap("matcha.add")
    #expect(step.actions == [["type": "add", "id": "matcha", "price": 9.9]])
    try screen.tap("oolong.add")
    try screen.tap("matcha.add")
    #expect(screen.state["count"] == 3)
    #expect((try screen.view("matcha.inCart") as? Label)?.text == "2")
    #expect((try screen.view("summary") as? Label)?.text == "3 in cart, total 26.00")
  }

  @Test("a Swift renderer serves a unit type the script does not know")
  func swiftRenderer() async throws {
    let screen = try await open(swiftUnits: ["video": { unit in Label(id: "video", text: "▶ " + (unit.data["url"].stringValue ?? "")) }])
    #expect(screen.warnings.isEmpty)
    #expect(screen.renderTree().node(withID: "video")?[property: "text"] == .string("▶ https://example.invalid/tea.mp4"))
  }
}

@Suite("Server-driven payloads over HTTP (loopback)")
struct ServerPayloadHTTPTests {
  @Test("a payload loads from an HTTP URL; an error status is a clear error")
  func loadsOverHTTP() async throws {
    let json = try String(contentsOfFile: examplePath("shop/payload.json"), encoding: .utf8)
    let server = try LoopbackHTTPServer(routes: ["/payload.json": json], maxRequests: 2)
    let payload = try await ServerPayload.load(from: server.url("/payload.json"))
    #expect(payload.sections.map(\.sectionId) == ["hero", "catalog"])
    do {
      _ = try await ServerPayload.load(from: server.url("/missing.json"))
      Issue.record("expected an HTTP error")
    } catch let error as ScreenUsageError {
      #expect(error.description.hasSuffix("answered HTTP 404"))
    }
  }
}

@Suite("Views are owned by Swift; Lua refers to them")
@MainActor
struct ViewOwnershipTests {
  @Test("views built before server-driven units survive until their parent takes them")
  func siblingsOfUnitsSurvive() throws {
    let payload = try ServerPayload(value: [[["unitType": "note"]]])
    let screen = try LuaScreen(path: screenFixture("units_first.lua"), options: .init(data: payload))
    #expect((try screen.view("before") as? Label)?.text == "still here")
    #expect((try screen.view("note1.text") as? Label)?.text == "unit")
    #expect((try screen.view("after") as? Label)?.text == "last")
  }

  @Test("a Lua configurer does not keep the Swift views it configured alive")
  func rolesDoNotRetainViews() throws {
    let bridge = try LuaViewBridge(runtime: try LuaRuntime())
    let script = try LuaConfigurer<LuaValue>(path: screenFixture("../roles/value_configure.lua"), bridge: bridge, coding: .codable)
    weak var released: StackView?
    do {
      let view = StackView(id: "card")
      view.addSubview(Label(id: "title"))
      try script.configure(view, with: ["title": "x"])
      #expect((view.subviews.first as? Label)?.text == "x")
      released = view
    }
    #expect(released == nil)
  }
}
