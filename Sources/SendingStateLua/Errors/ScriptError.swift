/// An error from a script, or from the host while serving a script.
///
/// Carries what a person needs to fix it: the kind, the chunk and line, the message, the Lua
/// traceback and a context label (which screen, callback, sender or event). Its description reads
/// like a compiler error:
///
/// ```swift
/// do { try runtime.call(configure, with: [state], context: "configure (view 'count')") }
/// catch let error as ScriptError {
///   print(error)  // counter.lua:12: in configure (view 'count'): attempt to index a nil value (field 'x')
/// }
/// ```
public struct ScriptError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, broadly.
  public enum Kind: String, Sendable, CaseIterable {
    /// The script does not compile.
    case syntax
    /// The script raised an error while running.
    case runtime
    /// The runtime's memory cap was reached.
    case memory
    /// The instruction budget of one entry into Lua ran out.
    case budgetExceeded = "budget exceeded"
    /// A value crossing the boundary had the wrong type or shape.
    case typeMismatch = "type mismatch"
    /// The script used something the sandbox does not allow.
    case sandboxViolation = "sandbox violation"
    /// Recursion went too deep (Lua stack or C stack).
    case stackOverflow = "stack overflow"
    /// The episode ran past its wall-clock time limit.
    case timeout = "time limit exceeded"
    /// A value, payload or layout is deeper or bigger than the limits allow.
    case tooLarge = "too large"
  }

  /// The kind.
  public var kind: Kind
  /// The chunk the error points into (`counter.lua`), if known.
  public var chunk: String?
  /// The line in that chunk, if known.
  public var line: Int?
  /// The message, without the position prefix.
  public var message: String
  /// Lua's stack traceback, if one was taken.
  public var traceback: String?
  /// What the host was doing: `"configure (view 'count')"`, `"handle (action 'increment')"`…
  public var context: String?

  /// Creates an error.
  public init(
    kind: Kind, message: String, chunk: String? = nil, line: Int? = nil, traceback: String? = nil,
    context: String? = nil
  ) {
    self.kind = kind
    self.message = message
    self.chunk = chunk
    self.line = line
    self.traceback = traceback
    self.context = context
  }

  /// `chunk:line: in context: message`, omitting the parts that are unknown.
  public var description: String {
    var text = ""
    if let chunk {
      text += chunk
      if let line { text += ":\(line)" }
      text += ": "
    }
    if let context { text += "in \(context): " }
    return text + message
  }

  /// The description followed by the traceback, for logs and the CLI's verbose output.
  public var fullDescription: String {
    guard let traceback, !traceback.isEmpty else { return description }
    return description + "\n" + traceback
  }

  /// The traceback's frames in scripts only (`file.lua:line: in …`), without the host's own
  /// (the screen kernel, the sandbox, the spec host) and C functions: what a script's author can
  /// act on. Nil when no script frame is left. ``fullDescription`` keeps every frame.
  public var scriptTraceback: String? {
    guard let traceback else { return nil }
    let frames = traceback.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().filter { line in
      let frame = line.drop { $0 == "\t" || $0 == " " }
      guard let colon = frame.range(of: ".lua:") else { return false }
      return !frame[..<colon.lowerBound].hasPrefix("sendingstate/")
    }
    guard !frames.isEmpty else { return nil }
    return (["stack traceback (script frames; --verbose shows the host's too):"] + frames.map(String.init)).joined(separator: "\n")
  }

  /// The description followed by the script frames of the traceback (``scriptTraceback``).
  public var scriptDescription: String {
    guard let frames = scriptTraceback else { return description }
    return description + "\n" + frames
  }

  /// A copy with `context` set, unless one is already set.
  public func inContext(_ label: String?) -> ScriptError {
    guard let label, context == nil else { return self }
    var copy = self
    copy.context = label
    return copy
  }
}

extension ScriptError {
  /// Splits a Lua error message (`"chunk:12: text\nstack traceback:…"`) into its parts.
  ///
  /// - Parameters:
  ///   - raw: the message as Lua produced it.
  ///   - kind: the kind to report.
  init(parsing raw: String, kind: Kind) {
    var body = raw
    var traceback: String?
    if let range = raw.range(of: "\nstack traceback:") {
      body = String(raw[..<range.lowerBound])
      traceback = String(raw[raw.index(after: range.lowerBound)...])
    }
    let position = ScriptError.splitPosition(body)
    self.init(kind: kind, message: position.message, chunk: position.chunk, line: position.line, traceback: traceback)
  }

  /// Finds a leading `chunk:line: ` in `text`.
  static func splitPosition(_ text: String) -> (chunk: String?, line: Int?, message: String) {
    var searchStart = text.startIndex
    while let colon = text[searchStart...].firstIndex(of: ":") {
      var cursor = text.index(after: colon)
      let digitsStart = cursor
      while cursor < text.endIndex, text[cursor].isASCII, text[cursor].isNumber {
        cursor = text.index(after: cursor)
      }
      if cursor > digitsStart, text[cursor...].hasPrefix(": "), let line = Int(text[digitsStart..<cursor]) {
        let chunk = String(text[..<colon])
        let message = String(text[text.index(cursor, offsetBy: 2)...])
        return (chunk, line, message)
      }
      searchStart = text.index(after: colon)
      // Only the first line can carry the position.
      if text[text.startIndex..<colon].contains("\n") { break }
    }
    return (nil, nil, text)
  }
}
