import Foundation
import SendingStateHeadless
import SendingStateLua
import Testing

@testable import SendingStatePlugins

@Suite("Plugin unit renderers: server-driven units rendered by a plugin, by unitType")
@MainActor
struct PluginUnitTests {
  func screenFixture(_ name: String) -> String {
    Bundle.module.resourceURL!.appendingPathComponent("Fixtures/screens/\(name)").path
  }

  /// Two review units and one of a type nobody renders.
  func payload(_ reviews: [(String, Int, String)]) -> ServerPayload {
    ServerPayload(sections: [
      ServerSection(
        sectionId: "reviews",
        units: reviews.map { author, stars, text in
          ServerUnit(unitType: "review", data: ["id": .string(author), "author": .string(author), "rating": .integer(Int64(stars)), "text": .string(text)])
        } + [ServerUnit(unitType: "video", data: [:])])
    ])
  }

  func options(_ plugins: [String], data: ServerPayload) -> LuaScreen.Options {
    let set = PluginSet.load(explicit: plugins.map(pluginFixture), environment: [:], hostAPI: host)
    var options = LuaScreen.Options(data: data)
    options.components = set.components
    options.units = set.units
    return options
  }

  @Test("a plugin renders the units of its type: layout, configure with the unit's data and the state, events")
  func rendersUnits() throws {
    let set = PluginSet.load(explicit: [pluginFixture("rating")], environment: [:], hostAPI: host)
    #expect(set.units.mapValues(\.plugin) == ["review": "rating"])
    let screen = try LuaScreen(
      path: screenFixture("reviews.lua"), options: options(["rating"], data: payload([("ana", 4, "Lovely"), ("bo", 2, "Meh")])))
    #expect((try screen.view("ana.author") as? Label)?.text == "ana (4)")
    // The plugin's component inside its unit configures with the unit's data.
    #expect((try screen.view("ana.given.stars") as? Label)?.text == "****.")
    #expect((try screen.view("bo.given.stars") as? Label)?.text == "**...")
    #expect((try screen.view("bo.text") as? Label)?.text == "Meh")
    try screen.tap("bo.helpful")
    #expect(screen.state["helpful"] == 1 && screen.state["last"] == "bo")
    #expect((try screen.view("count") as? Label)?.text == "1")
    // Only the type nobody renders is a placeholder.
    #expect(screen.warnings.filter { $0.contains("unknown unit type") }.count == 1)
    #expect(screen.warnings.first { $0.contains("unknown unit type 'video'") }?.contains("known: review") == true)
  }

  @Test("without the plugin its units are placeholders, and the screen still runs")
  func withoutPlugin() throws {
    let screen = try LuaScreen(path: screenFixture("reviews.lua"), options: options([], data: payload([("ana", 4, "Lovely")])))
    #expect((try screen.view("ana").subviews.first as? Label)?.text == "unsupported unit 'review'")
    #expect(screen.warnings.contains { $0.contains("unknown unit type 'review'") })
  }

  @Test("the screen's own units win over a plugin's of the same type")
  func screenWins() throws {
    let screen = try LuaScreen(path: screenFixture("reviews_own.lua"), options: options(["rating"], data: payload([("ana", 4, "x")])))
    #expect((try screen.view("ana.mine") as? Label)?.text == "own: ana")
  }

  @Test("an error in a plugin's unit names the unit, the plugin and file:line, and the event changes nothing")
  func failureNamesPlugin() throws {
    let screen = try LuaScreen(
      path: screenFixture("reviews.lua"), options: options(["rating"], data: payload([("ana", 4, "boom"), ("bo", 2, "Meh")])))
    let before = screen.state
    let error = #expect(throws: ScriptError.self) { try screen.tap("bo.helpful") }
    #expect(error?.chunk?.hasSuffix("rating/units/review.lua") == true)
    #expect(error?.line == 14)
    #expect(error?.context?.contains("unit 'ana' (review, plugin 'rating')") == true, "\(String(describing: error))")
    #expect(screen.state == before)
    #expect((try screen.view("count") as? Label)?.text == "0")
    #expect(screen.actionLog.isEmpty)
  }

  @Test("a unit file that returns no unit module is an error naming the plugin; a named file that is missing is a manifest error")
  func brokenUnitFile() throws {
    let error = #expect(throws: ScriptError.self) {
      try LuaScreen(path: self.screenFixture("reviews.lua"), options: self.options(["bad_unit"], data: self.payload([])))
    }
    #expect(error?.message.hasPrefix("the unit renderer 'broken' of plugin 'bad_unit' must return { layout") == true, "\(String(describing: error))")
    #expect(error?.chunk?.hasSuffix("bad_unit/units/broken.lua") == true)
    let set = PluginSet.load(explicit: [pluginFixture("missing_unit")], environment: [:], hostAPI: host)
    #expect(set.plugins.isEmpty && set.problems.first?.line == 7)
  }
}
