import SendingStateLua

/// One EVENT of the CLI grammar, parsed.
///
/// ```text
/// tap ID                         touchUpInside on a control, a tap gesture on a view
/// send ID EVENTNAME              any control event or gesture name
/// set ID VALUE                   slider/stepper value, switch on/off, segment number, text
/// type ID TEXT                   types into a text field (editing events)
/// gesture ID KIND [key=value…]   e.g. gesture card swipe direction=left
/// row LISTID INDEX EVENT…        an EVENT inside row INDEX (1-based), e.g. row items 2 tap delete
/// ```
///
/// ```swift
/// try EventCommand(parsing: "row items 2 set favorite on")
/// ```
public indirect enum EventCommand: Equatable, Sendable, CustomStringConvertible {
  /// `tap ID`.
  case tap(String)
  /// `send ID EVENTNAME`.
  case send(String, String)
  /// `set ID VALUE`.
  case set(String, String)
  /// `type ID TEXT`.
  case type(String, String)
  /// `gesture ID KIND [key=value…]`.
  case gesture(String, String, [String: String])
  /// `row LISTID INDEX EVENT…` (INDEX from 1).
  case row(String, Int, EventCommand)

  /// The row indices an EVENT may name: from 1 to a billion (no list has more rows; every
  /// surface that takes a row index — the EVENT grammar, the preview's messages — checks it
  /// against this range, so no arithmetic on it can overflow).
  public static let rowRange = 1...1_000_000_000

  /// The grammar, for `--help` and errors.
  public static let grammar = """
    EVENT is one of:
      tap ID                    touchUpInside on a control, a tap gesture elsewhere
      send ID EVENTNAME         a control event or a gesture (names below)
      set ID VALUE              slider/stepper value, switch on/off, segment number
                                (from 1), text field text; fires valueChanged only
                                when the value changes
      type ID TEXT              types TEXT into a text field (editing events)
      gesture ID KIND [key=value…]
                                e.g. gesture card swipe direction=left,
                                gesture card tap taps=2
      row LISTID INDEX EVENT…   an EVENT inside list row INDEX (from 1),
                                e.g. row items 2 tap delete
    Control events: touchDown, touchUpInside, touchUpOutside, valueChanged,
      editingDidBegin, editingChanged, editingDidEnd, primaryActionTriggered.
    Gestures: tap, longPress, swipe, pan, pinch, rotation, screenEdge, hover.
    Quote words with spaces: type search "green tea"; inside double quotes, \\"
    is a quote and \\\\ a backslash: type q "say \\"hi\\""
    """

  /// Parses one EVENT line.
  ///
  /// - Throws: ``ToolError/usage(_:)`` naming what is wrong and showing the grammar's line.
  public init(parsing line: String) throws {
    let words = try EventCommand.tokenize(line)
    self = try EventCommand.parse(words, line: line)
  }

  private static func parse(_ words: [String], line: String) throws -> EventCommand {
    func need(_ count: Int, _ usage: String) throws {
      guard words.count >= count else { throw ToolError.usage("bad EVENT '\(line)': expected '\(usage)'") }
    }
    guard let verb = words.first else { throw ToolError.usage("empty EVENT (try: tap ID)") }
    switch verb {
    case "tap":
      try need(2, "tap ID")
      guard words.count == 2 else { throw ToolError.usage("bad EVENT '\(line)': expected 'tap ID'") }
      return .tap(words[1])
    case "send":
      try need(3, "send ID EVENTNAME")
      return .send(words[1], words[2])
    case "set":
      try need(3, "set ID VALUE")
      return .set(words[1], words[2...].joined(separator: " "))
    case "type":
      try need(3, "type ID TEXT")
      return .type(words[1], words[2...].joined(separator: " "))
    case "gesture":
      try need(3, "gesture ID KIND [key=value…]")
      var parameters: [String: String] = [:]
      for pair in words[3...] {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else {
          throw ToolError.usage("bad gesture parameter '\(pair)' in '\(line)' (use key=value, e.g. direction=left)")
        }
        parameters[parts[0]] = parts[1]
      }
      return .gesture(words[1], words[2], parameters)
    case "row":
      try need(4, "row LISTID INDEX EVENT…")
      guard let index = Int(words[2]), rowRange.contains(index) else {
        throw ToolError.usage("bad EVENT '\(line)': row INDEX must be a number from 1 to \(rowRange.upperBound)")
      }
      let inner = try parse(Array(words[3...]), line: line)
      if case .row = inner { throw ToolError.usage("bad EVENT '\(line)': rows do not nest") }
      return .row(words[1], index, inner)
    default:
      throw ToolError.usage("unknown EVENT '\(verb)' in '\(line)'\n\(grammar)")
    }
  }

  /// Splits on spaces, keeping "double" or 'single' quoted words together; inside double
  /// quotes, `\"` is a quote and `\\` a backslash (any other backslash stays as typed).
  static func tokenize(_ line: String) throws -> [String] {
    var words: [String] = []
    var current = ""
    var quote: Character?
    var started = false
    var escaped = false
    for character in line {
      if let open = quote {
        if escaped {
          if character != "\"", character != "\\" { current.append("\\") }
          current.append(character)
          escaped = false
        } else if open == "\"", character == "\\" {
          escaped = true
        } else if character == open {
          quote = nil
        } else {
          current.append(character)
        }
      } else if character == "\"" || character == "'" {
        quote = character
        started = true
      } else if character == " " || character == "\t" {
        if started || !current.isEmpty { words.append(current) }
        current = ""
        started = false
      } else {
        current.append(character)
      }
    }
    if quote != nil { throw ToolError.usage("unterminated quote in EVENT '\(line)'") }
    if escaped { current.append("\\") }
    if started || !current.isEmpty { words.append(current) }
    return words
  }

  /// The command as it would be typed: parsing it gives the same command back (words with
  /// spaces, tabs or quotes, and empty words, are double-quoted, with `\"` and `\\` inside).
  public var description: String {
    switch self {
    case .tap(let id): return "tap \(EventCommand.quoted(id))"
    case .send(let id, let event): return "send \(EventCommand.quoted(id)) \(EventCommand.quoted(event))"
    case .set(let id, let value): return "set \(EventCommand.quoted(id)) \(EventCommand.quoted(value))"
    case .type(let id, let text): return "type \(EventCommand.quoted(id)) \(EventCommand.quoted(text))"
    case .gesture(let id, let kind, let parameters):
      let pairs = parameters.sorted { $0.key < $1.key }.map { EventCommand.quoted("\($0.key)=\($0.value)") }
      return (["gesture", EventCommand.quoted(id), EventCommand.quoted(kind)] + pairs).joined(separator: " ")
    case .row(let list, let index, let inner): return "row \(EventCommand.quoted(list)) \(index) \(inner)"
    }
  }

  /// `word` as one word of an EVENT line.
  static func quoted(_ word: String) -> String {
    guard word.isEmpty || word.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "'" }) else { return word }
    var out = "\""
    for character in word {
      if character == "\"" || character == "\\" { out.append("\\") }
      out.append(character)
    }
    return out + "\""
  }

  /// Runs the command on `screen` (a `row` command on that row's driver).
  @MainActor
  public func apply(to screen: LuaScreen) throws -> LuaScreen.Step {
    if case .row(let list, let index, let inner) = self {
      return try inner.apply(to: try screen.row(list, index))
    }
    return try apply(to: screen.driver)
  }

  /// Runs the command on the views of `driver` (a screen's or a row's).
  @MainActor
  public func apply(to driver: ScreenDriver) throws -> LuaScreen.Step {
    switch self {
    case .tap(let id): return try driver.tap(id)
    case .send(let id, let event): return try driver.send(id, event)
    case .set(let id, let value): return try driver.set(id, EventCommand.value(value))
    case .type(let id, let text): return try driver.type(id, text)
    case .gesture(let id, let kind, let parameters): return try driver.gesture(id, kind, parameters.mapValues(EventCommand.value))
    case .row: throw ToolError.usage("rows do not nest")
    }
  }

  /// A word as a value: integers, finite numbers and booleans are typed, the rest stays text
  /// (`nan`, `inf` and `1e400` too: no control takes them as numbers).
  static func value(_ word: String) -> LuaValue {
    if let integer = Int64(word) { return .integer(integer) }
    if let number = Double(word), number.isFinite { return .number(number) }
    if word == "true" { return .boolean(true) }
    if word == "false" { return .boolean(false) }
    return .string(word)
  }
}
