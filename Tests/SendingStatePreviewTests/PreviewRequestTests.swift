import SendingStateTools
import Testing

@testable import SendingStatePreview

@Suite("Preview requests: the page's messages become EVENTs, bounded")
struct PreviewRequestTests {
  @Test("verbs, rows, lines, scroll and sync decode to what the CLI would run")
  func decoding() throws {
    let tap = try PreviewRequest(text: #"{"seq":1,"verb":"tap","id":"plus"}"#)
    #expect(tap.seq == 1 && tap.action == .event(.tap("plus")))
    #expect(
      try PreviewRequest(text: #"{"seq":2,"verb":"set","id":"done","value":"on","row":["tasks",2]}"#).action
        == .event(.row("tasks", 2, .set("done", "on"))))
    #expect(try PreviewRequest(text: #"{"seq":3,"verb":"type","id":"draft","value":"say \"hi\" 'x'"}"#).action == .event(.type("draft", "say \"hi\" 'x'")))
    #expect(
      try PreviewRequest(text: #"{"seq":4,"verb":"gesture","id":"card","kind":"swipe","params":{"direction":"left"}}"#).action
        == .event(.gesture("card", "swipe", ["direction": "left"])))
    #expect(try PreviewRequest(text: #"{"seq":5,"verb":"send","id":"draft","kind":"primaryActionTriggered"}"#).action == .event(.send("draft", "primaryActionTriggered")))
    #expect(try PreviewRequest(text: #"{"seq":6,"line":"row items 2 tap add"}"#).action == .event(.row("items", 2, .tap("add"))))
    #expect(try PreviewRequest(text: #"{"seq":7,"scroll":{"list":"items","first":5}}"#).action == .scroll(list: "items", first: 5))
    #expect(try PreviewRequest(text: #"{"sync":true}"#).action == .sync)
  }

  @Test("bad messages are refused with a reason")
  func refusals() {
    func reason(_ text: String) -> String {
      do {
        _ = try PreviewRequest(text: text)
        return "accepted"
      } catch {
        return "\(error)"
      }
    }
    #expect(reason(String(repeating: " ", count: PreviewRequest.maximumSize + 1)).contains("too large"))
    #expect(reason("not json").contains("not the preview's JSON"))
    #expect(reason(#"{"verb":"jump","id":"x"}"#).contains("unknown verb 'jump'"))
    #expect(reason(#"{"verb":"tap"}"#).contains("needs an id"))
    #expect(reason(#"{"verb":"tap","id":""}"#).contains("id must be"))
    #expect(reason(#"{"verb":"set","id":"x"}"#).contains("needs a value"))
    #expect(reason(#"{"verb":"tap","id":"x","row":["list",0]}"#).contains("row must be"))
    #expect(reason(#"{"line":"jump x"}"#).contains("unknown EVENT"))
    #expect(reason(#"{"seq":1}"#).contains("no verb"))
  }
}
