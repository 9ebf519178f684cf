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
      screen.root.renderTree().text == """
        stack#root axis="vertical" spacing=0
          label#title text="Product"
          label#count text="1"
          button#plus title="+" enabled=true selected=false
        """)
    let step = try screen.tap("plus")
    #expect(step.actions == [["type": "increment"]])
    #expect(screen.state == ["title": "Product", "count": 2])
    #expect((try screen.view("count") as? Label)?.text == "2")
  }

  @Test("every ui.<kind> builder exists and takes its properties")
  func everyKind() throws {
    let screen = try LuaScreen(path: screenFixture("all_kinds.lua"))
    let tree = screen.root.renderTree().text
    #expect(
      tree == """
        stack#root axis="horizontal" spacing=2
          view#plain hidden=true
          label#label text="hi" alpha=0.5
          image#image image="star"
          button#button title="Go" enabled=false selected=true
          switch#switch isOn=true enabled=true selected=false
          slider#slider value=3 min=1 max=5 enabled=true selected=false
          stepper#stepper value=2 min=0 max=4 step=2 enabled=true selected=false
          segmented#segmented segments=["a","b"] selectedIndex=2 enabled=true selected=false
          textfield#textfield text="x" placeholder="type" enabled=true selected=false
          textfield#password text="" placeholder="" secure=true enabled=true selected=false
          list#list rows=0 first=1 visible=0
        """)
  }
}
