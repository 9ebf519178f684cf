import Testing

@testable import SendingStateTools

@Suite("The REPL's line editor")
struct LineEditorTests {
  /// Feeds `bytes` to a fresh editor; returns it and the last outcome.
  func type(_ text: String, into editor: inout LineEditor) -> LineEditor.Outcome {
    var outcome = LineEditor.Outcome.editing
    for key in LineEditor.keys(in: Array(text.utf8)) { outcome = editor.handle(key) }
    return outcome
  }

  @Test("keys decode from terminal bytes: arrows, Home/End, Delete, control keys, UTF-8")
  func decoding() {
    #expect(LineEditor.keys(in: Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}[H\u{1B}[F\u{1B}[3~\u{1B}OH".utf8))
      == [.up, .down, .right, .left, .home, .end, .delete, .home])
    #expect(LineEditor.keys(in: [0x01, 0x05, 0x0B, 0x15, 0x17, 0x7F, 0x09, 0x0D, 0x03, 0x04])
      == [.home, .end, .killToEnd, .killToStart, .killWord, .backspace, .tab, .enter, .interrupt, .endOfInput])
    #expect(LineEditor.keys(in: Array("é→".utf8)) == [.character("é"), .character("→")])
  }

  @Test("editing moves the cursor and deletes around it")
  func editing() {
    var editor = LineEditor()
    _ = type("tap plus", into: &editor)
    _ = type("\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[D", into: &editor)   // before "plus"
    _ = type("\u{7F}", into: &editor)                                // tap|plus
    #expect(editor.text == "tapplus" && editor.cursor == 3)
    _ = type(" ", into: &editor)
    _ = type("\u{0B}", into: &editor)                                // kill to end
    #expect(editor.text == "tap ")
    _ = type("minus\u{17}", into: &editor)                           // kill word
    #expect(editor.text == "tap ")
    _ = type("\u{01}x\u{05}y", into: &editor)
    #expect(editor.text == "xtap y")
    #expect(type("\r", into: &editor) == .submit("xtap y"))
    #expect(editor.text.isEmpty)
  }

  @Test("history: up and down walk earlier lines and come back to the draft")
  func history() {
    var editor = LineEditor(history: ["tap plus", "state"])
    _ = type("dra", into: &editor)
    _ = type("\u{1B}[A", into: &editor)
    #expect(editor.text == "state")
    _ = type("\u{1B}[A\u{1B}[A", into: &editor)
    #expect(editor.text == "tap plus")
    _ = type("\u{1B}[B\u{1B}[B", into: &editor)
    #expect(editor.text == "dra")
    _ = type("\u{15}tree\r", into: &editor)
    #expect(editor.history == ["tap plus", "state", "tree"])
  }

  @Test("tab completes commands, ids and events; a second tab lists the candidates")
  func completion() {
    let ids = ["count", "minus", "plus", "title"]
    let rows = ["items": ["delete", "name"]]
    var editor = LineEditor { words, _ in Repl.completions(after: words, ids: ids, rows: rows) }
    _ = type("ta\tpl\t", into: &editor)
    #expect(editor.text == "tap plus ")
    _ = type("\u{15}send pl\tt", into: &editor)
    #expect(editor.text == "send plus t")
    #expect(type("\t", into: &editor) == .editing)
    #expect(type("\t", into: &editor) == .candidates(["tap", "touchDown", "touchUpInside", "touchUpOutside"]))
    _ = type("\u{15}gesture count sw\t", into: &editor)
    #expect(editor.text == "gesture count swipe ")
    // After row: the lists; inside a row: that list's row ids, not the screen's.
    _ = type("\u{15}row it\t2 ta\tde\t", into: &editor)
    #expect(editor.text == "row items 2 tap delete ")
    _ = type("\u{15}row items 2 tap mi\t", into: &editor)
    #expect(editor.text == "row items 2 tap mi")
  }

  @Test("Ctrl-C drops the line; Ctrl-D on an empty line ends the input")
  func endings() {
    var editor = LineEditor()
    _ = type("tap\u{03}", into: &editor)
    #expect(editor.text.isEmpty)
    #expect(type("\u{04}", into: &editor) == .endOfInput)
  }
}
