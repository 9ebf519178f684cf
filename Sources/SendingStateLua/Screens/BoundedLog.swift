/// The most recent entries of a log that would otherwise grow for a screen's whole life (a
/// timer that re-arms itself dispatches for ever): at least the last ``limit`` entries are
/// kept, never more than twice that, and ``count`` says how many were ever appended, so a
/// reader can ask what came since it last looked.
///
/// ```swift
/// var log = BoundedLog<Int>(limit: 2)
/// for value in 1...5 { log.append(value) }
/// log.count            // 5
/// log.since(3)         // [4, 5]
/// ```
public struct BoundedLog<Entry: Sendable>: Sendable {
  /// The fewest recent entries kept.
  public let limit: Int
  /// The entries kept, oldest first.
  public private(set) var entries: [Entry] = []
  /// How many entries were ever appended.
  public private(set) var count = 0

  /// An empty log keeping at least the last `limit` entries (at least 1).
  public init(limit: Int) {
    self.limit = max(1, limit)
  }

  /// Appends `entry`, dropping the oldest entries once twice ``limit`` are kept.
  public mutating func append(_ entry: Entry) {
    append(contentsOf: [entry])
  }

  /// Appends `newEntries` in order.
  public mutating func append(contentsOf newEntries: [Entry]) {
    entries += newEntries
    count += newEntries.count
    // Trimmed in steps of `limit`: an append costs O(1) amortized, not a shift of the whole log.
    if entries.count > 2 * limit { entries.removeFirst(entries.count - limit) }
  }

  /// The entries appended after the first `seen` ones that are still kept.
  public func since(_ seen: Int) -> [Entry] {
    let wanted = count - max(0, min(seen, count))
    return Array(entries.suffix(min(wanted, entries.count)))
  }
}
