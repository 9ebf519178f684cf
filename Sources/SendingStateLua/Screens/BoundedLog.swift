/// The most recent entries of a log that would otherwise grow for a screen's whole life (a
/// timer that re-arms itself dispatches for ever): at most ``limit`` entries (and at most
/// ``byteBudget`` bytes of them, as ``cost`` counts) are kept, oldest dropped first — the last
/// entry always stays — and ``count`` says how many were ever appended, so a reader can ask
/// what came since it last looked.
///
/// ```swift
/// var log = BoundedLog<Int>(limit: 2)
/// for value in 1...5 { log.append(value) }
/// log.entries          // [4, 5]
/// log.count            // 5
/// log.since(3)         // [4, 5]
/// ```
package struct BoundedLog<Entry: Sendable>: Sendable {
  /// The most entries kept.
  package let limit: Int
  /// The most bytes of entries kept (the last entry stays even past it).
  package let byteBudget: Int
  /// What an entry costs in bytes.
  package let cost: @Sendable (Entry) -> Int
  /// How many entries were ever appended.
  package private(set) var count = 0
  /// The bytes the kept entries cost.
  package private(set) var bytes = 0

  // A ring: `storage` holds the kept entries from `head` on, wrapping around.
  private var storage: [(entry: Entry, cost: Int)] = []
  private var head = 0

  /// An empty log keeping at most `limit` entries (at least 1) and `byteBudget` bytes.
  package init(limit: Int, byteBudget: Int = .max, cost: @escaping @Sendable (Entry) -> Int = { _ in 0 }) {
    self.limit = max(1, limit)
    self.byteBudget = max(0, byteBudget)
    self.cost = cost
  }

  /// The entries kept, oldest first.
  package var entries: [Entry] {
    (storage[head...] + storage[..<head]).map(\.entry)
  }

  /// How many entries are kept.
  package var kept: Int { storage.count }

  /// Appends `entry`, dropping the oldest entries past ``limit`` or ``byteBudget``.
  package mutating func append(_ entry: Entry) {
    let price = cost(entry)
    count += 1
    bytes += price
    if storage.count < limit {
      storage.append((entry, price))
    } else {
      bytes -= storage[head].cost
      storage[head] = (entry, price)
      head = (head + 1) % storage.count
    }
    // Past the byte budget: drop the oldest, keeping the newest.
    while bytes > byteBudget, storage.count > 1 {
      bytes -= storage[head].cost
      storage.remove(at: head)
      if head == storage.count { head = 0 }
    }
  }

  /// Appends `newEntries` in order.
  package mutating func append(contentsOf newEntries: [Entry]) {
    for entry in newEntries { append(entry) }
  }

  /// The entries appended after the first `seen` ones that are still kept.
  package func since(_ seen: Int) -> [Entry] {
    let wanted = count - max(0, min(seen, count))
    return Array(entries.suffix(min(wanted, storage.count)))
  }
}
