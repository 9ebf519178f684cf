/// The known name a misspelt one most likely meant, for "did you mean …?" in errors.
///
/// A name is taken for a known one when they differ only in case and underscores
/// (`stateName` for `state_name`), or by one edit — an insertion, a deletion, a substitution or
/// two neighbours swapped — (two for names of seven letters or more):
///
/// ```swift
/// NameSuggestion.closest(to: "handel", among: ["handle", "layout"])   // "handle"
/// NameSuggestion.closest(to: "helpers", among: ["handle", "layout"])  // nil: not a misspelling
/// NameSuggestion.closest(to: "store", among: ["state"])               // nil: two edits apart
/// ```
package enum NameSuggestion {
  /// The nearest of `names` to `name`, or nil when none is near enough (or `name` is one of them).
  package static func closest(to name: String, among names: [String]) -> String? {
    // Keys are short: a long one is no misspelling (and is not worth lowercasing or folding).
    guard name.utf8.count <= 64, !names.contains(name) else { return nil }
    let folded = fold(name)
    if let same = names.first(where: { fold($0) == folded }) { return same }
    let word = Array(name.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in names {
      let other = Array(candidate.lowercased())
      let allowed = min(word.count, other.count) <= 6 ? 1 : 2
      let distance = editDistance(word, other)
      if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.name
  }

  /// Lowercased, without underscores.
  private static func fold(_ name: String) -> String {
    name.lowercased().filter { $0 != "_" }
  }

  /// Edits between `a` and `b`: insertions, deletions, substitutions and swaps of neighbours
  /// (the optimal string alignment distance).
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], before[j - 2] + 1)
        }
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
