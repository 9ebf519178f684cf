// Fuzz target: the preview's WebSocket messages.
//
// The first byte picks the mode. Most inputs are one message (the rest of the bytes as text, or
// a JSON message built from them: every field of the page's grammar, with integers at their
// edges, wrong types, long and odd strings) given to `PreviewRequest(text:)` alone. The others
// open an example (counter, products, tasks) behind a `PreviewHost`, connect up to three pages
// and hand it up to 16 messages from them (`receive`), with refreshes in between.
//
// Invariants:
// - no crash; `PreviewRequest` decodes or throws `PreviewRequest.Invalid` with a reason, and
//   what it decodes is within its ranges (seq 0…2^53−1, rows and scroll.first 1…1e9, names
//   1…200 bytes);
// - every message a page is sent is one JSON object, `full` or `patch`, whose version never
//   goes back; the panel's texts (error, log, diff, warnings, status, name) hold no raw control
//   character or bidi control; no page's queue holds more than its byte budget.
import Foundation
import SendingStateLua
import SendingStatePreview
import SendingStateTools

@_cdecl("LLVMFuzzerTestOneInput")
public func previewMessagesFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  var input = FuzzBytes(data, size)
  MainActor.assumeIsolated {
    if input.below(8) < 5 {
      let text = input.bool() ? String(decoding: input.rest(), as: UTF8.self) : PageMessage.make(&input, ids: PageMessage.someIDs)
      checkDecoding(text)
    } else {
      runHost(&input)
    }
  }
  return 0
}

/// Decodes `text` and checks what came out.
func checkDecoding(_ text: String) {
  let request: PreviewRequest
  do {
    request = try PreviewRequest(text: text)
  } catch let invalid as PreviewRequest.Invalid {
    fuzzCheck(!invalid.description.isEmpty, "a refusal without a reason")
    return
  } catch {
    fuzzFail("PreviewRequest threw \(type(of: error)): \(error)")
  }
  if fuzzVerbose { fuzzLog("decoded: \(request)") }
  fuzzCheck(text.utf8.count <= PreviewRequest.maximumSize, "a message over the size limit was accepted")
  fuzzCheck(PreviewRequest.seqRange.contains(request.seq), "seq \(request.seq) out of range")
  switch request.action {
  case .sync, .record: break
  case .moment(let id), .restore(let id):
    fuzzCheck(PreviewRequest.momentRange.contains(id), "moment \(id) out of range")
  case .clock(let clock):
    if case .step(let seconds) = clock {
      fuzzCheck(seconds.isFinite && PreviewRequest.stepRange.contains(seconds), "a step of \(seconds) s")
    }
  case .scroll(let list, let first):
    fuzzCheck(PreviewRequest.rowRange.contains(first), "scroll.first \(first) out of range")
    fuzzCheck(!list.isEmpty && list.utf8.count <= PreviewRequest.maximumNameLength, "scroll.list of \(list.utf8.count) bytes")
  case .event(let command):
    if case .row(_, let index, _) = command {
      fuzzCheck(EventCommand.rowRange.contains(index), "row index \(index) out of range")
    }
  }
}

/// An example behind a preview host, pages connected, messages from them.
@MainActor
func runHost(_ input: inout FuzzBytes) {
  let example = input.pick(["counter", "products", "tasks"])
  let path = FuzzScratch.repositoryRoot + "/examples/\(example)/\(example).lua"
  var limits = LuaRuntime.Limits()
  limits.timeLimit = .seconds(5)  // generous: the machine is shared, and these scripts are trusted
  let burst = input.bool() ? 2.0 : 1_000_000
  let host: PreviewHost
  do {
    host = try PreviewHost(
      path: path, options: .init(limits: limits, output: { _ in }), limiter: RateLimiter(perSecond: 1, burst: burst))
  } catch {
    fuzzFail("\(example) does not open: \(error)")
  }
  defer {
    host.disconnectAll()
    host.session.screen.close()
  }
  let ids = host.session.screen.ids
  var pages: [(id: Int, outbox: PageOutbox)] = []
  for _ in 0...input.below(3) {
    guard let page = host.connect() else { fuzzFail("a page was refused with \(pages.count) connected") }
    pages.append((page.id, page.messages))
  }
  var version = -1
  func drain() {
    for page in pages {
      fuzzCheck(page.outbox.queuedBytes <= PreviewHost.pageBudget, "a page's queue holds \(page.outbox.queuedBytes) bytes")
      for message in page.outbox.takeQueued() { version = checkMessage(message, after: version) }
    }
  }
  drain()
  for _ in 0..<(1 + input.below(16)) where !input.isAtEnd {
    let page = input.pick(pages)
    switch input.below(10) {
    case 0: host.refresh()
    case 1:
      // (The length first: the bytes after it are this message's, and the rest the next ones'.)
      let length = 1 + input.below(200)
      let text = String(decoding: input.bytes(length), as: UTF8.self)
      host.receive(text, from: page.id)
    default:
      let text = PageMessage.make(&input, ids: ids)
      if fuzzVerbose { fuzzLog("page \(page.id): \(text)") }
      host.receive(text, from: page.id)
    }
    drain()
  }
}

/// Checks one message to a page; returns its version.
func checkMessage(_ text: String, after version: Int) -> Int {
  guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
    fuzzFail("a message to the page is not a JSON object: \(text.prefix(300))")
  }
  let type = object["type"] as? String
  if type == "moment" {
    // A past moment, to the page that asked: within half its queue.
    fuzzCheck(text.utf8.count <= PreviewHost.pageBudget / 2, "a moment of \(text.utf8.count) bytes")
    fuzzCheck(object["moment"] is [String: Any], "a moment message without its moment")
    return version
  }
  if type == "spec" {
    // A recorded spec, to the page that asked: our own Lua source, within the record limit.
    let spec = object["text"] as? String ?? ""
    fuzzCheck(spec.utf8.count <= PreviewHost.recordLimit + (64 << 10), "a spec of \(spec.utf8.count) bytes")
    fuzzCheck(object["name"] is String, "a spec without a name")
    return version
  }
  fuzzCheck(type == "full" || type == "patch", "a message of type \(String(describing: type))")
  guard let next = object["version"] as? Int else { fuzzFail("a message without a version") }
  // A `full` message may come first (version 0 and up); patches never go back.
  fuzzCheck(next >= version || version < 0, "version went back from \(version) to \(next)")
  if type == "patch", let base = object["base"] as? Int { fuzzCheck(base <= next, "base \(base) after version \(next)") }
  guard let panel = object["panel"] as? [String: Any] else { fuzzFail("a message without a panel") }
  var texts: [String] = []
  for key in ["name", "path", "status"] { if let text = panel[key] as? String { texts.append(text) } }
  if let error = panel["error"] as? [String: Any] {
    texts += [error["message"] as? String, error["file"] as? String].compactMap { $0 }
  }
  texts += panel["diff"] as? [String] ?? []
  texts += panel["warnings"] as? [String] ?? []
  for entry in panel["log"] as? [[String: Any]] ?? [] {
    texts += [entry["event"] as? String, entry["error"] as? String].compactMap { $0 }
    texts += entry["actions"] as? [String] ?? []
  }
  for text in texts {
    let raw = text.unicodeScalars.first { scalar in
      switch scalar.value {
      case 0x09, 0x0A: false
      case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
      default: false
      }
    }
    fuzzCheck(raw == nil, "the panel shows a raw U+\(String(raw?.value ?? 0, radix: 16)) in \(text.debugDescription.prefix(200))")
  }
  return next
}

/// Messages as a page (or an attacker) would write them.
enum PageMessage {
  static let someIDs = ["plus", "minus", "count", "items", "tasks", "draft", "add", "done", "quantity", "favorite"]
  static let verbs = ["tap", "send", "set", "type", "gesture", "row", "jump", ""]
  static let kinds = ["touchUpInside", "valueChanged", "primaryActionTriggered", "tap", "swipe", "longPress", "pan", "pinch", ""]

  /// A JSON text: some of the grammar's fields, with values of the right type or not.
  static func make(_ input: inout FuzzBytes, ids: [String]) -> String {
    var members: [String] = []
    let fields = input.byte()
    if fields & 1 != 0 { members.append("\"seq\":" + number(&input)) }
    if fields & 2 != 0 { members.append("\"verb\":" + quoted(input.bool() ? input.pick(verbs) : input.string())) }
    if fields & 4 != 0 { members.append("\"id\":" + quoted(name(&input, ids: ids))) }
    if fields & 8 != 0 { members.append("\"value\":" + (input.bool() ? quoted(value(&input)) : number(&input))) }
    if fields & 16 != 0 { members.append("\"kind\":" + quoted(input.bool() ? input.pick(kinds) : input.string())) }
    if fields & 32 != 0 {
      switch input.below(4) {
      case 0: members.append("\"params\":{\"direction\":\"left\",\"taps\":" + quoted(String(input.integer())) + "}")
      case 1: members.append("\"params\":" + quoted(input.string()))
      case 2:
        let count = input.below(14)
        members.append("\"params\":{" + (0..<count).map { "\"k\($0)\":" + quoted(value(&input)) }.joined(separator: ",") + "}")
      default: members.append("\"row\":[" + quoted(input.pick(["items", "tasks", ""])) + "," + number(&input) + "]")
      }
    }
    if fields & 64 != 0 {
      let words = (0..<input.below(6)).map { _ in input.bool() ? input.pick(verbs + ids + ["1", "0", "-1", "9223372036854775808"]) : input.string() }
      members.append("\"line\":" + quoted(words.joined(separator: " ")))
    }
    if fields & 128 != 0 {
      switch input.below(4) {
      case 0: members.append("\"scroll\":{\"list\":" + quoted(name(&input, ids: ids)) + ",\"first\":" + number(&input) + "}")
      case 1: members.append("\"sync\":" + (input.bool() ? "true" : number(&input)))
      case 2: members.append("\"record\":" + quoted(input.bool() ? input.pick(["start", "save", "stop"]) : input.string()))
      default:
        // Rewind: moments and restores by number, the clock's words and steps at their edges.
        switch input.below(5) {
        case 0: members.append("\"moment\":" + (input.bool() ? String(input.below(40)) : number(&input)))
        case 1: members.append("\"restore\":" + (input.bool() ? String(input.below(40)) : number(&input)))
        case 2: members.append("\"clock\":" + quoted(input.bool() ? input.pick(["pause", "resume", "next", "step"]) : input.string()))
        case 3:
          members.append("\"clock\":\"step\"")
          members.append("\"by\":" + input.pick(["0.001", "0.25", "60", "60.0001", "0", "-1", "1e400", "1e-300", "\"0.5\"", "null"]))
        default: members.append("\"scroll\":" + number(&input))
        }
      }
    }
    if input.below(16) == 0, !members.isEmpty {
      // Another field order (the bytes decide; not `shuffle`, whose sampling never ends on a
      // generator that runs out of input and answers zero).
      let first = input.below(members.count)
      members.swapAt(first, input.below(members.count))
      members.reverse()
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  static func name(_ input: inout FuzzBytes, ids: [String]) -> String {
    switch input.below(6) {
    case 0: return input.string()
    case 1: return String(repeating: "n", count: 190 + input.below(20))
    case 2: return ""
    default: return input.pick(ids.isEmpty ? someIDs : ids)
    }
  }

  static func value(_ input: inout FuzzBytes) -> String {
    switch input.below(6) {
    case 0: return String(repeating: "v", count: 8_000 + input.below(400))
    case 1: return input.pick(["on", "off", "true", "nan", "1e400", "-0", "3", "2.5", "\u{1B}[2K\r"])
    default: return input.string()
    }
  }

  /// A JSON number (or something that is not one) at the edges of every range.
  static func number(_ input: inout FuzzBytes) -> String {
    switch input.below(12) {
    case 0: return "-9223372036854775808"
    case 1: return "9223372036854775807"
    case 2: return "9007199254740992"
    case 3: return "1000000001"
    case 4: return "1e400"
    case 5: return "1.5"
    case 6: return "\"7\""
    case 7: return "null"
    case 8: return "99999999999999999999"
    default: return String(input.integer())
    }
  }

  static func quoted(_ text: String) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: [text]), let array = String(data: data, encoding: .utf8) else {
      return "\"\""
    }
    return String(array.dropFirst().dropLast())
  }
}
