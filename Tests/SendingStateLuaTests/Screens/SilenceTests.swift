import Foundation
import SendingState
import SendingStateHeadless
import Testing

@testable import SendingStateLua

@Suite("Screens: a step that did nothing says why")
@MainActor
struct SilenceTests {
  func open() throws -> LuaScreen { try LuaScreen(path: screenFixture("silence.lua")) }

  @Test("a step that reached handle has no reason; one that did nothing always has one")
  func onlyWhenSilent() throws {
    let screen = try open()
    let step = try screen.tap("plus")
    #expect(step.actions == [["type": "increment"]] && step.why.isEmpty)
    for id in ["bare", "changes", "forgot", "declines", "card", "inner"] {
      let silent = try screen.tap(id)
      #expect(silent.actions.isEmpty && !silent.why.isEmpty, "\(id): \(silent.why)")
    }
  }

  @Test("a disabled view, and a view inside a hidden one, take no interaction")
  func blocked() throws {
    let screen = try open()
    #expect(try screen.tap("minus").why == ["'minus' is disabled (enabled = false), so it takes no interaction"])
    #expect(
      try screen.tap("inner").why == ["'inner' is inside 'panel', which is hidden (hidden = true), so it takes no interaction"])
    // Enabled again by the state: the same tap now reaches handle.
    try screen.tap("plus")
    #expect(try screen.tap("minus").why.isEmpty)
  }

  @Test("nothing registered on the view, or not for the events the interaction fires")
  func unregistered() throws {
    let screen = try open()
    #expect(try screen.tap("bare").why == ["nothing is registered on 'bare': no on(view.bare, …) in the screen's events"])
    #expect(
      try screen.tap("changes").why == [
        "nothing on 'changes' listens to touchDown|touchUpInside|primaryActionTriggered (what a tap fires); it has callbacks for valueChanged"
      ])
    #expect(
      try screen.send("card", "swipe").why == [
        "nothing on 'card' listens to a swipe gesture; it has callbacks for a tap gesture, a pan gesture"
      ])
  }

  @Test("a gesture that does not meet its recognizer, and one whose phases are all filtered out")
  func gestures() throws {
    let screen = try open()
    #expect(
      try screen.tap("card").why == [
        "the tap gesture registered on 'card' wants taps=2, touches=1; this one (one tap with one touch) did not meet it"
      ])
    #expect(try screen.gesture("card", "tap", ["taps": 2]).why.isEmpty)
    #expect(
      try screen.gesture("card", "pan", ["states": ["began", "changed", "cancelled"]]).why == [
        "the pan gesture registered on 'card' delivers only in phase ended; this one went began, changed, cancelled, so every phase was filtered out"
      ])
    #expect(try screen.gesture("card", "pan", ["states": ["began", "ended"]]).actions == [["type": "moved"]])
  }

  @Test("a callback that returned nothing, false or no action is named at its line")
  func callbacks() throws {
    let screen = try open()
    let path = screenFixture("silence.lua")
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    func line(_ text: String) -> Int { (lines.firstIndex { $0.contains(text) } ?? -1) + 1 }
    #expect(
      try screen.tap("forgot").why == [
        "\(path):\(line("on(view.forgot")): the callback for event 'touchUpInside' on 'forgot' returned nothing"
      ])
    #expect(
      try screen.tap("declines").why == [
        "\(path):\(line("on(view.declines")): the callback for event 'touchUpInside' on 'declines' returned false"
      ])
  }

  @Test("in a row, nothing registered names the row; typing nothing fires no editingChanged; a clamped slider; no phases")
  func rowsTypingSlidersPhases() throws {
    let screen = try open()
    #expect(
      try screen.row("items", 2).tap("tag").why == [
        "nothing is registered on 'tag' in row 2 of 'items': no on(…) for it in that list's row events"
      ])
    #expect(try screen.row("items", 2).tap("done").actions == [["type": "done", "item": "b"]])
    #expect(
      try screen.type("note", "").why == [
        "nothing on 'note' listens to editingDidBegin|editingDidEnd (what typing fires); it has callbacks for editingChanged"
      ])
    #expect(try screen.type("note", "hi").why.isEmpty)
    #expect(try screen.set("level", 10).why.isEmpty)
    #expect(
      try screen.set("level", 50).why == [
        "'level' already has that value after clamping to its range, so set fired no event (valueChanged fires only on a change)"
      ])
    #expect(
      try screen.gesture("card", "pan", ["states": LuaValue.table(LuaTable(sequence: []))]).why == [
        "the pan gesture registered on 'card' delivers only in phase ended; this one went through no phase, so every phase was filtered out"
      ])
  }

  @Test("a value set to the value the control has fires nothing")
  func unchangedValue() throws {
    let screen = try open()
    #expect(try screen.set("dark", true).actions == [["type": "dark", "on": true]])
    #expect(
      try screen.set("dark", true).why == [
        "'dark' already has that value, so set fired no event (valueChanged fires only on a change)"
      ])
  }

  @Test("the kernel keeps at most 16 notes of 400 bytes, however many callbacks stay silent")
  func bounded() throws {
    // A thousand-byte id makes each note longer than 400 bytes; 42 silent callbacks, more than 16.
    let source = """
      local id = ("b"):rep(1000)
      return {
        state = {},
        layout = function(ui) return ui.button { id = id } end,
        configure = function() end,
        events = function(view, on)
          for _ = 1, 40 do on(view[id], "touchUpInside", function() end) end
          on(view[id], "touchDown", function() return false end)
          on(view[id], "primaryActionTriggered", function() return {} end)
        end,
        handle = function() end,
      }
      """
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("silence-\(UUID().uuidString).lua").path
    try source.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let screen = try LuaScreen(path: path)
    let id = String(repeating: "b", count: 1000)
    let why = try screen.send(id, "touchUpInside").why
    #expect(why.count == 17 && why.last == "(and more: only the first 16 are kept)", "\(why.count): \(why.map { $0.prefix(60) })")
    #expect(why.allSatisfy { $0.utf8.count <= 404 })
    // A step holds its events' notes up to 32: a tap fires three events here (1 + 17 + 1 notes).
    #expect(try screen.tap(id).why.count == 19)
    // Typing fires an event per character, each with its notes: the step keeps 32 and says so.
    let typing = Silence.kept(Array(repeating: "note", count: 40))
    #expect(typing.count == 33 && typing.last == "(and more: a step keeps the first 32 reasons)")
  }
}
