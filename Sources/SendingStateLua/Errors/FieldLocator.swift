/// Finds the line that writes a field of a table constructor in Lua source, for errors about a
/// field's value: Lua keeps no position for a value in a table (a function knows where it is
/// defined; a number or a string does not), so the source is read instead.
///
/// `line(of: ["states", "warm", "transition"])` finds `states = {`, then `warm = {` inside it,
/// then `transition =` inside that, skipping comments and strings; `["key"] =` counts too. When
/// the path is not written literally (built by code, say), it gives the line of the deepest
/// part that is, or nil.
///
/// ```swift
/// let locator = FieldLocator(source: "return {\n  state_transition = \"x\",\n}")
/// locator.line(of: ["state_transition"])   // 2
/// ```
package struct FieldLocator {
  /// One token that matters here: a name (or a quoted key), `=`, a brace, with its line and
  /// depth of braces.
  private struct Token {
    enum Kind: Equatable { case name(String), assign, open, close }
    var kind: Kind
    var line: Int
  }

  private let tokens: [Token]

  /// Reads `source` (at most its first 4 MiB: a screen is text of that order).
  package init(source: String) {
    tokens = Self.tokenize(Array(source.utf8.prefix(4 << 20)))
  }

  /// The line that writes the last part of `path` (or the deepest part found), or nil.
  package func line(of path: [String]) -> Int? {
    // Inside the table the file returns (`return {` outside any braces), when there is one.
    var start = 0
    var end = tokens.count
    var depth = 0
    for index in tokens.indices {
      switch tokens[index].kind {
      case .open: depth += 1
      case .close: depth -= 1
      case .name("return") where depth == 0 && index + 1 < tokens.count && tokens[index + 1].kind == .open:
        start = index + 2
        end = closing(of: index + 1)
      default: break
      }
    }
    var found: Int?
    for (position, part) in path.enumerated() {
      // (A table built elsewhere and returned by name: the first `part =` anywhere.)
      let anywhere = position == 0 ? tokens.indices.first { tokens[$0].kind == .name(part) && $0 + 1 < tokens.count && tokens[$0 + 1].kind == .assign } : nil
      guard let index = find(part, from: start, to: end) ?? anywhere else { return found }
      found = tokens[index].line
      // The value's own braces, when it is a table: the next part is looked for inside them.
      let value = index + 2
      guard value < end, tokens[value].kind == .open else { return found }
      start = value + 1
      end = closing(of: value)
    }
    return found
  }

  /// The first `part =` at the top level of [start, end) (inside no nested braces there).
  private func find(_ part: String, from start: Int, to end: Int) -> Int? {
    var depth = 0
    var index = start
    while index < end {
      switch tokens[index].kind {
      case .open: depth += 1
      case .close: depth -= 1
      case .name(let name) where depth == 0 && name == part:
        if index + 1 < end, tokens[index + 1].kind == .assign { return index }
      default: break
      }
      index += 1
    }
    return nil
  }

  /// The index just past the brace that closes the one at `open`.
  private func closing(of open: Int) -> Int {
    var depth = 0
    for index in open..<tokens.count {
      if tokens[index].kind == .open { depth += 1 }
      if tokens[index].kind == .close {
        depth -= 1
        if depth == 0 { return index }
      }
    }
    return tokens.count
  }

  /// Names, `=`, braces and quoted keys (`["key"]` becomes a name), with lines; everything
  /// else is skipped, comments and strings included.
  private static func tokenize(_ bytes: [UInt8]) -> [Token] {
    var tokens: [Token] = []
    var line = 1
    var i = 0
    func isNameByte(_ byte: UInt8) -> Bool {
      (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
    }
    /// The level of a long bracket opening at `at` (`[[` 0, `[==[` 2), or nil.
    func longBracket(_ at: Int) -> Int? {
      guard at < bytes.count, bytes[at] == UInt8(ascii: "[") else { return nil }
      var level = 0
      var j = at + 1
      while j < bytes.count, bytes[j] == UInt8(ascii: "=") {
        level += 1
        j += 1
      }
      return j < bytes.count && bytes[j] == UInt8(ascii: "[") ? level : nil
    }
    /// Skips a long string or comment opening at `at` with `level`; returns the index after it.
    func skipLong(_ at: Int, level: Int) -> Int {
      var j = at + level + 2
      while j < bytes.count {
        if bytes[j] == 0x0A { line += 1 }
        if bytes[j] == UInt8(ascii: "]") {
          var k = j + 1
          var equals = 0
          while k < bytes.count, bytes[k] == UInt8(ascii: "=") {
            equals += 1
            k += 1
          }
          if equals == level, k < bytes.count, bytes[k] == UInt8(ascii: "]") { return k + 1 }
        }
        j += 1
      }
      return bytes.count
    }
    /// Skips a quoted string opening at `at`; returns the index after it and its text.
    func skipQuoted(_ at: Int) -> (Int, String) {
      let quote = bytes[at]
      var j = at + 1
      var text: [UInt8] = []
      while j < bytes.count, bytes[j] != quote, bytes[j] != 0x0A {
        if bytes[j] == UInt8(ascii: "\\"), j + 1 < bytes.count {
          if bytes[j + 1] == 0x0A { line += 1 }
          text.append(bytes[j + 1])
          j += 2
          continue
        }
        text.append(bytes[j])
        j += 1
      }
      return (min(j + 1, bytes.count), String(decoding: text, as: UTF8.self))
    }
    while i < bytes.count {
      let byte = bytes[i]
      if byte == 0x0A {
        line += 1
        i += 1
      } else if byte == UInt8(ascii: "-"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "-") {
        if let level = longBracket(i + 2) {
          i = skipLong(i + 2, level: level)
        } else {
          while i < bytes.count, bytes[i] != 0x0A { i += 1 }
        }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        i = skipQuoted(i).0
      } else if byte == UInt8(ascii: "[") {
        if let level = longBracket(i) {
          i = skipLong(i, level: level)
        } else {
          // `["key"] =`: a quoted key.
          var j = i + 1
          while j < bytes.count, bytes[j] == 0x20 { j += 1 }
          if j < bytes.count, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") {
            let keyLine = line
            let (after, text) = skipQuoted(j)
            var k = after
            while k < bytes.count, bytes[k] == 0x20 { k += 1 }
            if k < bytes.count, bytes[k] == UInt8(ascii: "]") {
              tokens.append(Token(kind: .name(text), line: keyLine))
              i = k + 1
              continue
            }
            i = after
          } else {
            i += 1
          }
        }
      } else if byte == UInt8(ascii: "{") {
        tokens.append(Token(kind: .open, line: line))
        i += 1
      } else if byte == UInt8(ascii: "}") {
        tokens.append(Token(kind: .close, line: line))
        i += 1
      } else if byte == UInt8(ascii: "=") {
        if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "=") {
          i += 2
        } else {
          tokens.append(Token(kind: .assign, line: line))
          i += 1
        }
      } else if byte == UInt8(ascii: "~") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") {
        // (`~=`, `<=`, `>=`: not an assignment)
        i += i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "=") ? 2 : 1
      } else if isNameByte(byte) {
        var j = i
        while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
        tokens.append(Token(kind: .name(String(decoding: bytes[i..<j], as: UTF8.self)), line: line))
        i = j
      } else {
        // Anything else (operators, brackets that are not keys) is a separator: a name before
        // it is not a key.
        if byte != 0x20 && byte != 0x09 && byte != 0x0D && byte != UInt8(ascii: ",") && byte != UInt8(ascii: ";") {
          tokens.append(Token(kind: .name(""), line: line))
        }
        i += 1
      }
    }
    return tokens
  }
}
