import SendingStateLua
import Testing

@testable import SendingStateTools

@Suite("The EVENT grammar")
struct EventCommandTests {
  @Test("every form parses", arguments: [
    ("tap plus", EventCommand.tap("plus")),
    ("send plus touchDown", .send("plus", "touchDown")),
    ("set quantity 4", .set("quantity", "4")),
    ("type search \"green tea\"", .type("search", "green tea")),
    ("type search green tea", .type("search", "green tea")),
    ("gesture card swipe direction=left", .gesture("card", "swipe", ["direction": "left"])),
    ("row items 2 tap delete", .row("items", 2, .tap("delete"))),
    ("row items 10 set favorite on", .row("items", 10, .set("favorite", "on"))),
  ])
  func parses(line: String, expected: EventCommand) throws {
    #expect(try EventCommand(parsing: line) == expected)
  }

  @Test("descriptions read back as the same command")
  func roundTrip() throws {
    for line in ["tap plus", "type search \"green tea\"", "gesture card tap taps=2", "row items 2 send fav valueChanged"] {
      let command = try EventCommand(parsing: line)
      #expect(try EventCommand(parsing: command.description) == command)
    }
  }

  @Test("any command's description reads back as the same command: quotes, backslashes, spaces, empty words")
  func oddWordsRoundTrip() throws {
    let odd = ["say \"hi\"", "it's", "both ' and \"", "back\\slash", "end\\", "\\\"", "", " ", "\t", "a  b", "'", "\""]
    var commands: [EventCommand] = []
    for word in odd {
      commands += [.tap(word), .send(word, word), .set("x", word), .type(word, word), .gesture(word, "swipe", ["k": word])]
      commands.append(.row(word.isEmpty ? "l" : word, 3, .type("x", word)))
    }
    for command in commands {
      #expect(try EventCommand(parsing: command.description) == command, "\(command.description)")
    }
    // A backslash outside quotes, or before any other character, stays as typed.
    #expect(try EventCommand(parsing: #"type path C:\dir\x"#) == .type("path", #"C:\dir\x"#))
    #expect(try EventCommand(parsing: #"type path "C:\dir""#) == .type("path", #"C:\dir"#))
    #expect(try EventCommand(parsing: #"type q "say \"hi\"""#) == .type("q", #"say "hi""#))
  }

  @Test("bad events are usage errors that say what is expected", arguments: [
    ("", "empty EVENT (try: tap ID)"),
    ("tap", "bad EVENT 'tap': expected 'tap ID'"),
    ("tap a b", "bad EVENT 'tap a b': expected 'tap ID'"),
    ("row items x tap a", "bad EVENT 'row items x tap a': row INDEX must be a number from 1 to 1000000000"),
    ("row items 0 tap a", "bad EVENT 'row items 0 tap a': row INDEX must be a number from 1 to 1000000000"),
    ("gesture card swipe left", "bad gesture parameter 'left' in 'gesture card swipe left' (use key=value, e.g. direction=left)"),
    ("type search \"open", "unterminated quote in EVENT 'type search \"open'"),
  ])
  func errors(line: String, message: String) {
    #expect(throws: ToolError.usage(message)) { try EventCommand(parsing: line) }
  }

  @Test("an unknown verb shows the grammar")
  func unknownVerb() {
    do {
      _ = try EventCommand(parsing: "click plus")
      Issue.record("expected an error")
    } catch let error as ToolError {
      #expect(error.exitCode == 2)
      #expect(error.description.contains("unknown EVENT 'click'"))
      #expect(error.description.contains("row LISTID INDEX EVENT…"))
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test("values are typed: integers, numbers, booleans, text")
  func values() {
    #expect(EventCommand.value("4") == .integer(4))
    #expect(EventCommand.value("0.5") == .number(0.5))
    #expect(EventCommand.value("true") == .boolean(true))
    #expect(EventCommand.value("on") == .string("on"))
  }

  @Test("events files skip blanks and comments and name the bad line")
  func eventsFile() throws {
    let commands = try EventScript.commands(in: "# setup\ntap plus\n\n  tap plus  \n", name: "e.txt")
    #expect(commands == [.tap("plus"), .tap("plus")])
    #expect(throws: ToolError.usage("e.txt:2: bad EVENT 'tap': expected 'tap ID'")) {
      try EventScript.commands(in: "tap a\ntap\n", name: "e.txt")
    }
  }
}

@Suite("State diffs")
struct StateDiffTests {
  @Test("changed, added and removed paths, sorted")
  func diff() {
    let old: LuaValue = ["count": 1, "items": [["on": false]], "note": "x"]
    let new: LuaValue = ["count": 2, "items": [["on": true], ["on": false]], "cart": ["tea": 1]]
    #expect(
      StateDiff.lines(from: old, to: new) == [
        "+ cart: {\"tea\":1}", "count: 1 → 2", "items[1].on: false → true", "+ items[2]: {\"on\":false}", "- note",
      ])
    #expect(StateDiff.lines(from: old, to: old).isEmpty)
  }

  @Test("a diff is bounded: values cut with their length, and past the line budget the rest is counted")
  func bounded() {
    let big = String(repeating: "x", count: 100_000)
    let lines = StateDiff.lines(from: ["note": "a"], to: ["note": .string(big)])
    #expect(lines.count == 1 && lines[0].hasSuffix("… (100000 bytes; cut at 16384)\""))
    #expect(lines[0].utf8.count < 17_000)
    var wide: [String: LuaValue] = [:]
    for index in 0..<2_000 { wide["key\(index)"] = .string(String(repeating: "y", count: 1_000)) }
    let many = StateDiff.lines(from: .table(LuaTable()), to: .table(LuaTable(fields: wide)))
    #expect(many.reduce(0) { $0 + $1.utf8.count } < StateDiff.lineBudget + 2_000)
    #expect(many.last?.hasPrefix("… ") == true && many.last?.contains("more changes left out") == true)
    #expect(many.count < 2_000)
  }
}

@Suite("Words as values")
struct EventValueTests {
  @Test("integers, finite numbers and booleans are typed; nan, inf and 1e400 stay text")
  func values() {
    #expect(EventCommand.value("3") == .integer(3))
    #expect(EventCommand.value("2.5") == .number(2.5))
    #expect(EventCommand.value("true") == .boolean(true))
    for word in ["nan", "-nan", "inf", "-inf", "1e400", "infinity"] { #expect(EventCommand.value(word) == .string(word), "\(word)") }
  }
}
