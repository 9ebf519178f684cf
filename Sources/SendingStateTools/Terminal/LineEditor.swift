import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The REPL's line editor: cursor movement, Emacs-style editing keys, history (kept in a file
/// between sessions) and tab completion.
///
/// Our own rather than libedit: the REPL needs only a small, fixed set of keys, and a
/// dependency-free editor keeps `sendingstate` a single binary with no extra system library to
/// install, link and wrap from Swift; its key handling is plain data in, data out, so it is
/// tested without a terminal.
///
/// ```swift
/// var editor = LineEditor(history: ["tap plus"])
/// _ = editor.handle(.character("t"))
/// _ = editor.handle(.tab)        // completes through `complete`
/// ```
public struct LineEditor: Sendable {
  /// A key press, decoded from the terminal's bytes.
  public enum Key: Equatable, Sendable {
    /// A printable character.
    case character(Character)
    /// Enter.
    case enter
    /// Backspace (and Ctrl-H).
    case backspace
    /// Delete (and Ctrl-D on a non-empty line).
    case delete
    /// Left arrow, Ctrl-B.
    case left
    /// Right arrow, Ctrl-F.
    case right
    /// Home, Ctrl-A.
    case home
    /// End, Ctrl-E.
    case end
    /// Up arrow, Ctrl-P: the previous history entry.
    case up
    /// Down arrow, Ctrl-N: the next history entry.
    case down
    /// Ctrl-K: delete to the end.
    case killToEnd
    /// Ctrl-U: delete to the start.
    case killToStart
    /// Ctrl-W: delete the word before the cursor.
    case killWord
    /// Tab: complete.
    case tab
    /// Ctrl-C: drop the line.
    case interrupt
    /// Ctrl-D on an empty line: end of input.
    case endOfInput
    /// Ctrl-L: redraw.
    case redraw
    /// Anything else.
    case ignored
  }

  /// What to do after a key.
  public enum Outcome: Equatable, Sendable {
    /// Keep editing (redraw the line).
    case editing
    /// The line is done.
    case submit(String)
    /// These completions are possible (show them, keep editing).
    case candidates([String])
    /// The input ended.
    case endOfInput
  }

  /// The line being edited.
  public private(set) var line: [Character] = []
  /// The cursor, from 0 to `line.count`.
  public private(set) var cursor = 0
  /// Earlier lines, oldest first.
  public private(set) var history: [String]
  private var historyIndex: Int
  private var draft: [Character] = []
  private var lastKeyWasTab = false
  /// Candidates for the word being completed, given the words before it.
  public var complete: @Sendable (_ previousWords: [String], _ prefix: String) -> [String]

  /// Creates an editor with `history` (oldest first).
  public init(
    history: [String] = [], complete: @escaping @Sendable ([String], String) -> [String] = { _, _ in [] }
  ) {
    self.history = history
    self.historyIndex = history.count
    self.complete = complete
  }

  /// The line as text.
  public var text: String { String(line) }

  /// Starts a new line (history browsing starts from the newest entry again).
  public mutating func reset() {
    line = []
    cursor = 0
    historyIndex = history.count
    lastKeyWasTab = false
  }

  /// Applies one key.
  public mutating func handle(_ key: Key) -> Outcome {
    defer { lastKeyWasTab = key == .tab }
    switch key {
    case .character(let character):
      line.insert(character, at: cursor)
      cursor += 1
    case .enter:
      let submitted = text
      if !submitted.trimmingCharacters(in: .whitespaces).isEmpty, history.last != submitted { history.append(submitted) }
      reset()
      return .submit(submitted)
    case .backspace:
      if cursor > 0 {
        line.remove(at: cursor - 1)
        cursor -= 1
      }
    case .delete:
      if cursor < line.count { line.remove(at: cursor) }
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(line.count, cursor + 1)
    case .home: cursor = 0
    case .end: cursor = line.count
    case .up:
      guard historyIndex > 0 else { break }
      if historyIndex == history.count { draft = line }
      historyIndex -= 1
      line = Array(history[historyIndex])
      cursor = line.count
    case .down:
      guard historyIndex < history.count else { break }
      historyIndex += 1
      line = historyIndex == history.count ? draft : Array(history[historyIndex])
      cursor = line.count
    case .killToEnd: line.removeSubrange(cursor...)
    case .killToStart:
      line.removeSubrange(..<cursor)
      cursor = 0
    case .killWord:
      var start = cursor
      while start > 0, line[start - 1] == " " { start -= 1 }
      while start > 0, line[start - 1] != " " { start -= 1 }
      line.removeSubrange(start..<cursor)
      cursor = start
    case .tab: return completeWord()
    case .interrupt: reset()
    case .endOfInput: return .endOfInput
    case .redraw, .ignored: break
    }
    return .editing
  }

  /// Completes the word before the cursor: one candidate is inserted (with a space), several
  /// extend to their common prefix, and a second tab lists them.
  private mutating func completeWord() -> Outcome {
    let before = String(line[..<cursor])
    var words = before.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    let prefix = before.hasSuffix(" ") || before.isEmpty ? "" : (words.popLast() ?? "")
    let candidates = complete(words, prefix).filter { $0.hasPrefix(prefix) }.sorted()
    guard !candidates.isEmpty else { return .editing }
    if candidates.count == 1 {
      insert(String(candidates[0].dropFirst(prefix.count)) + " ")
      return .editing
    }
    let common = candidates.dropFirst().reduce(candidates[0]) { shared, next in
      String(zip(shared, next).prefix { $0 == $1 }.map(\.0))
    }
    if common.count > prefix.count {
      insert(String(common.dropFirst(prefix.count)))
      return .editing
    }
    return lastKeyWasTab ? .candidates(candidates) : .editing
  }

  private mutating func insert(_ text: String) {
    line.insert(contentsOf: Array(text), at: cursor)
    cursor += text.count
  }

  /// Decodes the keys in `bytes` (as read from a terminal in raw mode).
  public static func keys(in bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case 0x1B:
        // ESC [ X, ESC O X, ESC [ 3 ~ …
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O") else {
          keys.append(.ignored)
          continue
        }
        index += 1
        var parameter: [UInt8] = []
        while index < bytes.count, (0x30...0x3F).contains(bytes[index]) {
          parameter.append(bytes[index])
          index += 1
        }
        guard index < bytes.count else { break }
        let final = bytes[index]
        index += 1
        switch (final, parameter) {
        case (UInt8(ascii: "A"), _): keys.append(.up)
        case (UInt8(ascii: "B"), _): keys.append(.down)
        case (UInt8(ascii: "C"), _): keys.append(.right)
        case (UInt8(ascii: "D"), _): keys.append(.left)
        case (UInt8(ascii: "H"), _): keys.append(.home)
        case (UInt8(ascii: "F"), _): keys.append(.end)
        case (UInt8(ascii: "~"), [UInt8(ascii: "3")]): keys.append(.delete)
        case (UInt8(ascii: "~"), [UInt8(ascii: "1")]), (UInt8(ascii: "~"), [UInt8(ascii: "7")]): keys.append(.home)
        case (UInt8(ascii: "~"), [UInt8(ascii: "4")]), (UInt8(ascii: "~"), [UInt8(ascii: "8")]): keys.append(.end)
        default: keys.append(.ignored)
        }
      case 0x01: keys.append(.home)
      case 0x02: keys.append(.left)
      case 0x03: keys.append(.interrupt)
      case 0x04: keys.append(.endOfInput)
      case 0x05: keys.append(.end)
      case 0x06: keys.append(.right)
      case 0x08, 0x7F: keys.append(.backspace)
      case 0x09: keys.append(.tab)
      case 0x0A, 0x0D: keys.append(.enter)
      case 0x0B: keys.append(.killToEnd)
      case 0x0C: keys.append(.redraw)
      case 0x0E: keys.append(.down)
      case 0x10: keys.append(.up)
      case 0x15: keys.append(.killToStart)
      case 0x17: keys.append(.killWord)
      case 0x00..<0x20: keys.append(.ignored)
      default:
        // One UTF-8 character.
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        let end = min(bytes.count, index - 1 + length)
        if let character = String(bytes: bytes[(index - 1)..<end], encoding: .utf8)?.first {
          keys.append(.character(character))
        } else {
          keys.append(.ignored)
        }
        index = end
      }
    }
    return keys
  }
}

/// Reads lines from a terminal with a ``LineEditor``: raw mode while a line is edited, the
/// line redrawn after each key.
public final class TerminalLineReader: @unchecked Sendable {
  private var editor: LineEditor
  private let historyFile: String?
  private let lock = NSLock()

  /// Creates a reader; `historyFile` keeps the history between sessions (the last 500 lines).
  public init(historyFile: String?, complete: @escaping @Sendable ([String], String) -> [String]) {
    self.historyFile = historyFile
    let saved = historyFile.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
    editor = LineEditor(
      history: Array(saved.split(separator: "\n").map(String.init).suffix(500)), complete: complete)
  }

  /// The default history file: `~/.sendingstate_history`.
  public static var defaultHistoryFile: String? {
    ProcessInfo.processInfo.environment["HOME"].map { ($0 as NSString).appendingPathComponent(".sendingstate_history") }
  }

  /// Reads one line after showing `prompt`; `nil` at the end of input (Ctrl-D).
  public func readLine(prompt: String) -> String? {
    lock.lock()
    defer { lock.unlock() }
    var saved = termios()
    guard tcgetattr(0, &saved) == 0 else { return Swift.readLine() }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    tcsetattr(0, TCSADRAIN, &raw)
    defer { tcsetattr(0, TCSADRAIN, &saved) }
    editor.reset()
    draw(prompt)
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = read(0, &buffer, buffer.count)
      if count <= 0 { return nil }
      for key in LineEditor.keys(in: Array(buffer[..<count])) {
        let endOfInput = key == .endOfInput && !editor.line.isEmpty
        switch editor.handle(endOfInput ? .delete : key) {
        case .editing: draw(prompt)
        case .candidates(let candidates):
          // Candidates are view ids and names from the script: shown made visible.
          write("\r\n" + VisibleText.escaped(candidates.joined(separator: "  ")) + "\r\n")
          draw(prompt)
        case .submit(let line):
          write("\r\n")
          remember(line)
          return line
        case .endOfInput:
          write("\r\n")
          return nil
        }
      }
    }
  }

  /// Redraws the line; its text (completions put ids from the script in it) is made visible,
  /// and the cursor is moved back over the visible form of what follows it.
  private func draw(_ prompt: String) {
    let cursor = min(max(0, editor.cursor), editor.line.count)
    let before = VisibleText.escaped(String(editor.line[..<cursor]))
    let after = VisibleText.escaped(String(editor.line[cursor...]))
    let back = after.count
    write("\r" + prompt + before + after + "\u{1B}[K" + (back > 0 ? "\u{1B}[\(back)D" : ""))
  }

  private func write(_ text: String) {
    Console.raw(text)
  }

  private func remember(_ line: String) {
    guard let historyFile, !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
    if let handle = FileHandle(forWritingAtPath: historyFile) {
      // (The throwing calls: the old ones trap on a full disk.)
      _ = try? handle.seekToEnd()
      try? handle.write(contentsOf: Data((line + "\n").utf8))
      try? handle.close()
    } else {
      try? (line + "\n").write(toFile: historyFile, atomically: true, encoding: .utf8)
    }
  }
}
