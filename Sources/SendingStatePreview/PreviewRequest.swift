import Foundation
import SendingStateTools

/// One message from the page, decoded and bounded.
///
/// The page sends JSON text frames:
///
/// ```json
/// {"seq": 7, "verb": "tap", "id": "plus"}
/// {"seq": 8, "verb": "set", "id": "favorite", "value": "on", "row": ["items", 2]}
/// {"seq": 9, "verb": "type", "id": "draft", "value": "buy \"tea\""}
/// {"seq": 10, "verb": "gesture", "id": "card", "kind": "swipe", "params": {"direction": "left"}}
/// {"seq": 11, "line": "tap plus"}
/// {"seq": 12, "scroll": {"list": "items", "first": 5}}
/// {"seq": 13, "sync": true}
/// {"seq": 14, "record": "start"}
/// {"seq": 15, "moment": 3}
/// {"seq": 16, "restore": 3}
/// {"seq": 17, "clock": "pause"}
/// {"seq": 18, "clock": "step", "by": 0.25}
/// ```
///
/// `verb`/`line` messages become the CLI's EVENTs (``EventCommand``), so everything a page does
/// can be replayed with `sendingstate run --send`. `scroll` moves a list's window (the EVENT
/// grammar has no scroll yet); `sync` asks for the whole tree again; `record` starts writing the
/// session as a spec, saves what was recorded so far (`save`: the spec comes back to that page
/// alone) or stops (see ``PreviewHost``); `moment` asks for a past moment of the timeline (its
/// state, tree and picture come back to that page alone), `restore` opens the screen again with
/// a past moment's state, and `clock` pauses, resumes or steps the screen's clock (`step` by `by`
/// seconds, `next` to the next timer due).
package struct PreviewRequest: Equatable, Sendable {
  /// What the page asks for.
  package enum Action: Equatable, Sendable {
    /// Apply an EVENT.
    case event(EventCommand)
    /// Scroll the list `list` so row `first` (from 1) is the first visible row.
    case scroll(list: String, first: Int)
    /// Send the whole tree and panel again.
    case sync
    /// Start, save or stop recording the session as a spec.
    case record(Recording)
    /// Send this page the timeline's moment with this number.
    case moment(Int)
    /// Open the screen again with the state of the moment with this number.
    case restore(Int)
    /// Pause, resume or step the screen's clock.
    case clock(Clock)
  }

  /// What `clock` asks for.
  package enum Clock: Equatable, Sendable {
    /// Stop the clock: timers wait until it is stepped or resumed.
    case pause
    /// Let the clock run with real time again.
    case resume
    /// Move a paused clock on by this many seconds (within ``PreviewRequest/stepRange``).
    case step(Double)
    /// Move a paused clock to the next timer due.
    case next
  }

  /// What `record` asks for.
  package enum Recording: String, Equatable, Sendable, CaseIterable {
    /// Start recording (again, from now).
    case start
    /// Send the spec recorded so far to the page.
    case save
    /// Stop recording.
    case stop
  }

  /// The page's sequence number, echoed in the reply (for latency and ordering).
  package var seq: Int
  /// What to do.
  package var action: Action

  /// The largest message accepted, in bytes.
  package static let maximumSize = 16 * 1024
  /// The longest id, event name or gesture kind accepted.
  package static let maximumNameLength = 200
  /// The longest value (typed text) accepted.
  package static let maximumValueLength = 8 * 1024
  /// The sequence numbers accepted: the page's are JavaScript numbers, exact up to 2^53 − 1.
  package static let seqRange = 0...9_007_199_254_740_991
  /// The rows a scroll or a row event may name (``EventCommand/rowRange``).
  package static let rowRange = EventCommand.rowRange
  /// The moment numbers a page may name (the timeline's numbers only grow; beyond a page's
  /// exact integers none is ever reached).
  package static let momentRange = 0...9_007_199_254_740_991
  /// The seconds one `clock` `step` may move the clock: a millisecond to a minute (a step
  /// fires every timer due within it, so a long one with a fast timer is a long wait; `next`
  /// reaches a timer however far).
  package static let stepRange: ClosedRange<Double> = 0.001...60

  /// A message the page got wrong: the reason, for the page's error panel.
  package struct Invalid: Error, Equatable, CustomStringConvertible {
    /// What is wrong and how to send it instead.
    package var description: String
  }

  private struct Wire: Decodable {
    var seq: Int?
    var verb: String?
    var id: String?
    var value: String?
    var kind: String?
    var params: [String: String]?
    var row: [Row]?
    var line: String?
    var scroll: Scroll?
    var sync: Bool?
    var record: String?
    var moment: Int?
    var restore: Int?
    var clock: String?
    var by: Double?
  }

  private enum Row: Decodable, Equatable {
    case text(String)
    case number(Int)

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let number = try? container.decode(Int.self) {
        self = .number(number)
      } else {
        self = .text(try container.decode(String.self))
      }
    }
  }

  private struct Scroll: Decodable {
    var list: String
    var first: Int
  }

  /// Decodes one text frame: the one validator of what a page sends. Every string is checked
  /// for length, every integer against its range (``seqRange``, ``rowRange``), so nothing
  /// downstream does arithmetic on a value from the page that could overflow.
  ///
  /// - Throws: ``Invalid`` naming what is wrong (too big, not JSON, a missing field, an unknown
  ///   verb, a bad EVENT line, a number out of its range).
  package init(text: String) throws {
    guard text.utf8.count <= PreviewRequest.maximumSize else {
      throw Invalid(description: "message too large (\(text.utf8.count) bytes; at most \(PreviewRequest.maximumSize))")
    }
    let wire: Wire
    do {
      wire = try JSONDecoder().decode(Wire.self, from: Data(text.utf8))
    } catch {
      throw Invalid(description: "message is not the preview's JSON ({\"seq\":1,\"verb\":\"tap\",\"id\":\"plus\"})")
    }
    seq = wire.seq ?? 0
    guard PreviewRequest.seqRange.contains(seq) else {
      throw Invalid(description: "seq must be 0…\(PreviewRequest.seqRange.upperBound)")
    }
    if wire.by != nil, wire.clock != "step" {
      throw Invalid(description: "by goes with clock \"step\" only ({\"clock\":\"step\",\"by\":0.5})")
    }
    if wire.sync == true {
      action = .sync
    } else if let moment = wire.moment {
      guard PreviewRequest.momentRange.contains(moment) else {
        throw Invalid(description: "moment must be a moment's number, 0…\(PreviewRequest.momentRange.upperBound)")
      }
      action = .moment(moment)
    } else if let restore = wire.restore {
      guard PreviewRequest.momentRange.contains(restore) else {
        throw Invalid(description: "restore must be a moment's number, 0…\(PreviewRequest.momentRange.upperBound)")
      }
      action = .restore(restore)
    } else if let clock = wire.clock {
      action = .clock(try PreviewRequest.clock(clock, by: wire.by))
    } else if let record = wire.record {
      guard let recording = Recording(rawValue: record) else {
        throw Invalid(description: "record must be \(Recording.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
      }
      action = .record(recording)
    } else if let scroll = wire.scroll {
      try PreviewRequest.checkName(scroll.list, "scroll.list")
      guard PreviewRequest.rowRange.contains(scroll.first) else {
        throw Invalid(description: "scroll.first must be \(PreviewRequest.rowRange.lowerBound)…\(PreviewRequest.rowRange.upperBound)")
      }
      action = .scroll(list: scroll.list, first: scroll.first)
    } else if let line = wire.line {
      guard line.utf8.count <= PreviewRequest.maximumValueLength else { throw Invalid(description: "EVENT line too long") }
      do {
        action = .event(try EventCommand(parsing: line))
      } catch {
        throw Invalid(description: ToolError.from(error).description)
      }
    } else if let verb = wire.verb {
      action = .event(try PreviewRequest.command(verb: verb, wire: wire))
    } else {
      throw Invalid(description: "message has no verb, line, scroll, sync, record, moment, restore or clock")
    }
  }

  private static func clock(_ word: String, by seconds: Double?) throws -> Clock {
    switch word {
    case "pause": return .pause
    case "resume": return .resume
    case "next": return .next
    case "step":
      let range = PreviewRequest.stepRange
      guard let seconds else { throw Invalid(description: "clock \"step\" needs by: the seconds to move, e.g. {\"clock\":\"step\",\"by\":0.5}") }
      guard seconds.isFinite, range.contains(seconds) else {
        throw Invalid(description: "by must be \(range.lowerBound)…\(Int(range.upperBound)) seconds (use clock \"next\" to reach a later timer)")
      }
      return .step(seconds)
    default:
      throw Invalid(description: "clock must be \"pause\", \"resume\", \"step\" or \"next\"")
    }
  }

  static func checkName(_ name: String, _ field: String) throws {
    guard !name.isEmpty, name.utf8.count <= maximumNameLength else {
      throw Invalid(description: "\(field) must be 1…\(maximumNameLength) bytes")
    }
  }

  private static func command(verb: String, wire: Wire) throws -> EventCommand {
    guard let id = wire.id else { throw Invalid(description: "'\(verb)' needs an id") }
    try checkName(id, "id")
    func value() throws -> String {
      guard let value = wire.value else { throw Invalid(description: "'\(verb) \(id)' needs a value") }
      guard value.utf8.count <= maximumValueLength else { throw Invalid(description: "value too long (at most \(maximumValueLength) bytes)") }
      return value
    }
    func kind() throws -> String {
      guard let kind = wire.kind else { throw Invalid(description: "'\(verb) \(id)' needs a kind") }
      try checkName(kind, "kind")
      return kind
    }
    let command: EventCommand
    switch verb {
    case "tap": command = .tap(id)
    case "send": command = .send(id, try kind())
    case "set": command = .set(id, try value())
    case "type": command = .type(id, try value())
    case "gesture":
      let params = wire.params ?? [:]
      // (Keys as the EVENT grammar can write them: not empty, no '=', so the log's line replays.)
      guard params.count <= 10,
        params.allSatisfy({ !$0.key.isEmpty && !$0.key.contains("=") && $0.key.utf8.count <= 40 && $0.value.utf8.count <= 100 })
      else {
        throw Invalid(description: "gesture parameters: at most 10, keys of 1…40 bytes without '=', values of at most 100")
      }
      command = .gesture(id, try kind(), params)
    default:
      throw Invalid(description: "unknown verb '\(verb.prefix(40))' (tap, send, set, type, gesture)")
    }
    guard let row = wire.row else { return command }
    guard row.count == 2, case .text(let list) = row[0], case .number(let index) = row[1], rowRange.contains(index) else {
      throw Invalid(description: "row must be [LISTID, INDEX \(rowRange.lowerBound)…\(rowRange.upperBound)]")
    }
    try checkName(list, "row list")
    return .row(list, index, command)
  }
}
