import SendingState
import SendingStateHeadless
import Testing

@testable import SendingStateLua

@Suite("The screen contract, exactly as the issue writes it")
@MainActor
struct ContractTests {
  @Test("the contract snippet runs unchanged")
  func contractSnippet() throws {
    let screen = try LuaScreen(path: screenFixture("contract.lua"))
    #expect(
      screen.renderTree().text == """
        stack#root axis="vertical" spacing=0
          label#title text="Product"
          label#count text="1"
          button#plus title="+" selected=false enabled=true
        """)
    let step = try screen.tap("plus")
    #expect(step.actions == [["type": "increment"]])
    #expect(screen.state == ["title": "Product", "count": 2])
    #expect((try screen.view("count") as? Label)?.text == "2")
  }

  @Test("every ui.<kind> builder exists and takes its properties")
  func everyKind() throws {
    let screen = try LuaScreen(path: screenFixture("all_kinds.lua"))
    let tree = screen.renderTree().text
    #expect(
      tree == """
        stack#root axis="horizontal" spacing=2
          view#plain hidden=true
          label#label text="hi" alpha=0.5
          image#image image="star"
          button#button title="Go" selected=true enabled=false
          switch#switch isOn=true enabled=true
          slider#slider value=3 min=1 max=5 enabled=true
          stepper#stepper value=2 min=0 max=4 step=2 enabled=true
          segmented#segmented segments=["a","b"] selectedIndex=2 enabled=true
          textfield#textfield text="x" placeholder="type" enabled=true
          textfield#password text="" placeholder="" secure=true enabled=true
          list#list rows=0 first=1 visible=0
        """)
  }

  @Test("a callback that returns nothing is warned about once, at its line; false means no action on purpose")
  func silentCallback() throws {
    let screen = try LuaScreen(path: screenFixture("authoring.lua"))
    let step = try screen.tap("silent")
    #expect(step.actions.isEmpty)
    try screen.tap("silent")
    try screen.tap("quiet")
    #expect(screen.warnings.count == 1)
    #expect(screen.warnings.first?.hasSuffix(
      "authoring.lua:14: the callback for event 'touchUpInside' on 'silent' returned nothing, so the event did nothing; return an action (or false when that is meant)") == true,
      "\(screen.warnings)")
  }

  @Test("a stepper with a whole min and step hands Lua integers; a fractional step, floats")
  func stepperNumbers() throws {
    let screen = try LuaScreen(path: screenFixture("authoring.lua"))
    #expect(try screen.set("whole", 4).actions == [["type": "step", "kind": "integer"]])
    #expect(try screen.set("half", 1.5).actions == [["type": "step", "kind": "float"]])
    #expect(try screen.property("value", of: "whole") == .integer(4))
  }

  @Test("a duplicate id names both lines; an unknown ui kind lists the kinds")
  func authoringErrors() throws {
    let duplicate = #expect(throws: ScriptError.self) { try LuaScreen(path: screenFixture("duplicate_id.lua")) }
    #expect(duplicate?.line == 6)
    #expect(duplicate?.message.hasPrefix("duplicate view id 'title' in the screen (first used at ") == true, "\(String(describing: duplicate))")
    #expect(duplicate?.message.contains("duplicate_id.lua:5)") == true)
    let unknown = #expect(throws: ScriptError.self) { try LuaScreen(path: screenFixture("unknown_kind.lua")) }
    #expect(unknown?.line == 3)
    #expect(unknown?.message.contains("unknown view kind 'ui.lable' (kinds: button, image, label, list,") == true)
  }

  @Test("configure gets the state it showed before (nil the first time); a commit of an equal state does not reconfigure")
  func renderWithHistory() throws {
    let screen = try LuaScreen(path: screenFixture("history.lua"))
    func label(_ id: String) -> String? { (try? screen.view(id) as? Label)?.text }
    #expect(label("was") == "first" && label("renders") == "1")
    try screen.perform(action: "bump")
    #expect(label("count") == "1" && label("was") == "0" && label("renders") == "2")
    try screen.perform(action: "same")  // writes the values state already has
    #expect(label("renders") == "2")
    try screen.perform(action: "bump")
    #expect(label("count") == "2" && label("was") == "1" && label("renders") == "3")
  }

  @Test("a write that changes a number's subtype (2 to 2.0) is a change: the state holds what the script wrote")
  func numberSubtypeIsAChange() throws {
    // Lua's `==` says 2 == 2.0, but tostring (and Swift, and JSON readers) tell them apart. The
    // fuzzer found the state depending on whether another key changed in the same update.
    let screen = try LuaScreen(path: screenFixture("history.lua"))
    func label(_ id: String) -> String? { (try? screen.view(id) as? Label)?.text }
    try screen.perform(action: "bump")
    try screen.perform(action: "bump")
    let step = try screen.perform(action: "float")
    #expect(step.after["count"] == .number(2.0))
    #expect(label("count") == "2.0" && label("renders") == "4")
    try screen.perform(action: "float")  // 2.0 + 0.0 is 2.0: equal and the same subtype
    #expect(label("renders") == "4")
    let other = try LuaScreen(path: screenFixture("history.lua"))
    try other.perform(action: "float and title")
    #expect(other.state["count"] == .number(0.0))
    let alone = try LuaScreen(path: screenFixture("history.lua"))
    try alone.perform(action: "float")
    #expect(alone.state["count"] == other.state["count"])
  }

  @Test("components: ui.<name> builds a component like a built-in kind; props, the screen's state, its own events")
  func components() throws {
    let screen = try LuaScreen(path: screenFixture("components.lua"))
    func text(_ id: String) -> String? { (try? screen.view(id) as? Label)?.text }
    #expect(text("five.stars") == "*...." && text("three.stars") == "*..")
    #expect(try screen.tap("three.more").actions == [["type": "rate", "max": 3]])
    try screen.tap("three.more")
    #expect(text("five.stars") == "***.." && text("three.stars") == "***")
    try screen.tap("three.more")  // at its max: nothing changes
    #expect(screen.state["rating"] == 3)
  }
}
