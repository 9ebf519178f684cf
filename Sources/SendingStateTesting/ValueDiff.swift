/// A line diff of two values as `dump` prints them, for test failures.
///
/// Decision: our own small diff (a longest-common-subsequence over `dump`'s lines, with a few
/// lines of context) instead of swift-custom-dump: the mirrored custom-dump needs a newer
/// manifest version and another package than this toolchain has, and `dump`'s nested layout
/// already reads well line by line.
enum ValueDiff {
  /// The lines that differ between `expected` and `actual`, marked `−` (expected) and `+`
  /// (actual), with unchanged lines around them; nil when the dumps are equal.
  static func lines<Value>(_ expected: Value, _ actual: Value, context: Int = 2) -> String? {
    let old = dumped(expected)
    let new = dumped(actual)
    if old == new { return nil }
    // The longest common subsequence, by dynamic programming (dumps are small).
    let n = old.count
    let m = new.count
    var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    var marked: [(mark: Character, line: String)] = []
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n, j < m, old[i] == new[j] {
        marked.append((" ", old[i]))
        i += 1
        j += 1
      } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
        marked.append(("\u{2212}", old[i]))  // expected lines first, then actual ones
        i += 1
      } else {
        marked.append(("+", new[j]))
        j += 1
      }
    }
    // Keep the changed lines and `context` lines around each.
    let changed = marked.indices.filter { marked[$0].mark != " " }
    var keep = Set<Int>()
    for index in changed {
      for k in max(0, index - context)...min(marked.count - 1, index + context) { keep.insert(k) }
    }
    var out: [String] = []
    var previous = -1
    for index in keep.sorted() {
      if previous >= 0, index > previous + 1 { out.append("  …") }
      out.append("\(marked[index].mark) \(marked[index].line)")
      previous = index
    }
    return out.joined(separator: "\n")
  }

  private static func dumped<Value>(_ value: Value) -> [String] {
    var text = ""
    dump(value, to: &text)
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
  }
}
