import Foundation

/// Finds comparisons of a screen's action with a string (`if action == "inc"`), which are never
/// true: an action reaches `handle` (and `reduce`) as a table, `{ type = "inc", … }`, even
/// when a callback returned the string `"inc"`.
///
/// A reading of the source, not of the running screen (the comparison is false without an
/// error, so nothing at run time shows it): the name of `handle`'s first parameter (`reduce`'s
/// second), then `NAME == "…"`, `NAME ~= "…"` or `"…" == NAME` on any line outside a comment.
///
/// ```swift
/// ActionComparisonLint.findings(in: "handle = function(action, store)\n  if action == \"inc\" then", path: "s.lua")
/// // ["s.lua:2: warning: `action == \"inc\"` is never true: …"]
/// ```
package enum ActionComparisonLint {
  /// One warning per comparison, as `file:line: warning: …`.
  package static func findings(in source: String, path: String) -> [String] {
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map { code(of: String($0)) }
    var names: Set<String> = []
    let text = lines.joined(separator: "\n")
    for match in text.matches(of: /\bhandle\s*=\s*function\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)/) { names.insert(String(match.output.1)) }
    for match in text.matches(of: /\bfunction\s+[A-Za-z_][A-Za-z0-9_.:]*[.:]handle\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)/) {
      names.insert(String(match.output.1))
    }
    for match in text.matches(of: /\breduce\s*=\s*function\s*\(\s*[A-Za-z_][A-Za-z0-9_]*\s*,\s*([A-Za-z_][A-Za-z0-9_]*)/) {
      names.insert(String(match.output.1))
    }
    var warnings: [String] = []
    for (index, line) in lines.enumerated() {
      for name in names.sorted() {
        for comparison in comparisons(of: name, in: line) {
          warnings.append(
            "\(path):\(index + 1): warning: `\(comparison.text)` is never true: actions reach handle as tables "
              + "({ type = \(comparison.literal), … }), even when a callback returns the string; compare \(name).type \(comparison.op) \(comparison.literal)")
        }
      }
    }
    return warnings
  }

  /// `NAME == "x"`, `NAME ~= 'x'`, `"x" == NAME` in `line`, with the operator and the literal.
  private static func comparisons(of name: String, in line: String) -> [(text: String, op: String, literal: String)] {
    var found: [(String, String, String)] = []
    for match in line.matches(of: /([A-Za-z_][A-Za-z0-9_.]*)\s*([=~]=)\s*("[^"]*"|'[^']*')/) where match.output.1 == name {
      found.append((String(match.output.0), String(match.output.2), String(match.output.3)))
    }
    for match in line.matches(of: /("[^"]*"|'[^']*')\s*([=~]=)\s*([A-Za-z_][A-Za-z0-9_.]*)/) where match.output.3 == name {
      found.append((String(match.output.0), String(match.output.2), String(match.output.1)))
    }
    return found
  }

  /// The line without its comment (`--` outside a string).
  private static func code(of line: String) -> String {
    var quote: Character?
    var previous: Character = " "
    for index in line.indices {
      let character = line[index]
      if let open = quote {
        if character == open && previous != "\\" { quote = nil }
      } else if character == "\"" || character == "'" {
        quote = character
      } else if character == "-" && previous == "-" {
        return String(line[..<line.index(before: index)])
      }
      previous = character
    }
    return line
  }
}
