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

@Suite("Preview requests: every integer from the page is checked against its range")
struct PreviewRequestRangeTests {
  func reason(_ text: String) -> String {
    do {
      _ = try PreviewRequest(text: text)
      return "accepted"
    } catch {
      return "\(error)"
    }
  }

  @Test("scroll.first: 1 … the row limit; the smallest and largest 64-bit integers are refused, not trapped on")
  func scrollFirst() throws {
    for first in ["-9223372036854775808", "9223372036854775807", "0", "-1", "1000000001"] {
      #expect(reason(#"{"seq":1,"scroll":{"list":"items","first":\#(first)}}"#).contains("scroll.first must be 1…1000000000"), "\(first)")
    }
    for first in ["1e400", "1.5", "\"5\"", "null", "99999999999999999999"] {
      #expect(reason(#"{"seq":1,"scroll":{"list":"items","first":\#(first)}}"#) != "accepted", "\(first)")
    }
    #expect(try PreviewRequest(text: #"{"scroll":{"list":"items","first":1000000000}}"#).action == .scroll(list: "items", first: 1_000_000_000))
  }

  @Test("seq: 0 … 2^53 − 1 (the page's numbers are JavaScript's)")
  func seq() throws {
    for seq in ["-1", "-9223372036854775808", "9007199254740992", "9223372036854775807"] {
      #expect(reason(#"{"seq":\#(seq),"sync":true}"#).contains("seq must be 0…9007199254740991"), "\(seq)")
    }
    #expect(try PreviewRequest(text: #"{"seq":9007199254740991,"sync":true}"#).seq == 9_007_199_254_740_991)
  }

  @Test("row indices: 1 … the row limit, in a verb's row and in an EVENT line")
  func rows() {
    for index in ["-9223372036854775808", "9223372036854775807", "0", "1000000001"] {
      #expect(reason(#"{"verb":"tap","id":"x","row":["items",\#(index)]}"#).contains("row must be [LISTID, INDEX 1…1000000000]"), "\(index)")
      #expect(reason(#"{"line":"row items \#(index) tap x"}"#).contains("row INDEX must be a number from 1 to 1000000000"), "\(index)")
    }
  }

  @Test("deep or odd JSON is refused with a reason, never a crash")
  func oddJSON() {
    #expect(reason(String(repeating: "[", count: 10_000)) != "accepted")
    #expect(reason(String(repeating: "{\"a\":", count: 3_000)) != "accepted")
    #expect(reason(#"{"seq":1,"scroll":{"list":"","first":1}}"#).contains("scroll.list must be"))
    #expect(reason(#"{"seq":1,"verb":"gesture","id":"x","kind":"tap","params":{"taps":"\#(String(repeating: "9", count: 101))"}}"#) != "accepted")
  }
}
