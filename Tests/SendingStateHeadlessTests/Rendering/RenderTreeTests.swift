import SendingState
import Testing

@testable import SendingStateHeadless

@Suite("Render tree: deterministic text and JSON")
@MainActor
struct RenderTreeTests {
  func makeScreen() -> View {
    let root = StackView(id: "root", axis: .vertical, spacing: 8)
    root.addSubview(Label(id: "title", text: "Tea \"green\""))
    let buttons = StackView(id: "buttons", axis: .horizontal)
    buttons.addSubview(Button(id: "plus", title: "+"))
    let hidden = Button(id: "minus", title: "-")
    hidden.isHidden = true
    hidden.isEnabled = false
    buttons.addSubview(hidden)
    root.addSubview(buttons)
    root.addSubview(Switch(id: "favorite", isOn: true))
    root.addSubview(Slider(id: "quantity", value: 2.5, minimumValue: 0, maximumValue: 10))
    root.addSubview(Stepper(id: "count", value: 1, minimumValue: 0, maximumValue: 9))
    root.addSubview(SegmentedControl(id: "sort", segments: ["Name", "Price"], selectedIndex: 1))
    root.addSubview(TextField(id: "search", placeholder: "Search"))
    let icon = ImageView(id: "icon", imageName: "star")
    icon.alpha = 0.5
    root.addSubview(icon)
    let plain = View()
    plain.isEnabled = false
    root.addSubview(plain)
    return root
  }

  @Test("text form: one node a line, indented, stable")
  func textForm() {
    let expected = """
      stack#root axis="vertical" spacing=8
        label#title text="Tea \\"green\\""
        stack#buttons axis="horizontal" spacing=0
          button#plus title="+" enabled=true selected=false
          button#minus title="-" enabled=false selected=false hidden=true
        switch#favorite isOn=true enabled=true selected=false
        slider#quantity value=2.5 min=0 max=10 enabled=true selected=false
        stepper#count value=1 min=0 max=9 step=1 enabled=true selected=false
        segmented#sort segments=["Name","Price"] selectedIndex=1 enabled=true selected=false
        textfield#search text="" placeholder="Search" enabled=true selected=false
        image#icon image="star" alpha=0.5
        view enabled=false
      """
    #expect(makeScreen().renderTree().text == expected)
    #expect(makeScreen().renderTree() == makeScreen().renderTree())
  }

  @Test("JSON form: kind, id, properties by name, children")
  func jsonForm() {
    let label = Label(id: "t", text: "a\nb")
    let stack = StackView(id: "s")
    stack.addSubview(label)
    #expect(
      stack.renderTree().json
        == #"{"kind":"stack","id":"s","axis":"vertical","spacing":0,"children":[{"kind":"label","id":"t","text":"a\nb","children":[]}]}"#
    )
    let pretty = stack.renderTree().json(pretty: true)
    #expect(
      pretty == """
        {
          "kind": "stack",
          "id": "s",
          "axis": "vertical",
          "spacing": 0,
          "children": [
            {
              "kind": "label",
              "id": "t",
              "text": "a\\nb",
              "children": []
            }
          ]
        }
        """)
    #expect(View().renderTree().json == #"{"kind":"view","id":null,"children":[]}"#)
  }

  @Test("lists render their visible rows with the views' own 0-based indices")
  func listRendering() {
    final class Rows: ListDataSource {
      func numberOfRows(in list: ListView) -> Int { 3 }
      func list(_ list: ListView, rowAt index: Int) -> ListRow {
        list.dequeueReusableRow(withIdentifier: "row", for: index)
      }
    }
    let list = ListView(id: "items", visibleRowLimit: 2)
    let rows = Rows()
    list.register(ListRow.self, forReuseIdentifier: "row")
    list.dataSource = rows
    list.reloadData()
    #expect(
      list.renderTree().text == """
        list#items rows=3 first=0 visible=2
          row index=0
          row index=1
        """)
  }

  @Test("numbers print stably; node lookup and property subscripts work")
  func valuesAndLookup() {
    #expect(RenderValue.number(3).jsonText == "3")
    #expect(RenderValue.number(-0.25).jsonText == "-0.25")
    #expect(RenderValue.number(.nan).jsonText == "null")
    #expect(RenderValue.string("\u{1}").jsonText == #""\u0001""#)
    let tree = makeScreen().renderTree()
    #expect(tree.node(withID: "favorite")?[property: "isOn"] == .bool(true))
    #expect(tree.node(withID: "nope") == nil)
  }
}
