/// One Swift copy of each long text the screen's views show, across events.
///
/// A batch shares the long strings it reads (one copy per Lua string), but views keep their
/// values from event to event: a script that writes one 4 MiB string to a different label at
/// each event would otherwise leave a copy in every label, outside the Lua heap — sixty events,
/// 240 MB, while Lua holds one string. Interned here, every view shows the same buffer. The
/// table keeps at most ``budget`` bytes (oldest dropped first): what it holds beyond the views'
/// own is bounded, and the distinct long texts views can show at once are bounded by the Lua
/// heap (the kernel keeps every view's value).
struct LongStrings {
  /// Texts shorter than this are not interned (they are cheap to copy).
  static let minimum = 4_096
  /// The most bytes the table keeps.
  static let budget = 64 << 20

  private var table: [String: String] = [:]
  private var order: [String] = []
  private var head = 0
  private var bytes = 0

  /// `text`, or the equal text already interned (the same buffer).
  mutating func intern(_ text: String) -> String {
    let length = text.utf8.count
    guard length >= Self.minimum else { return text }
    if let known = table[text] { return known }
    table[text] = text
    order.append(text)
    bytes += length
    while bytes > Self.budget, head < order.count - 1 {
      let oldest = order[head]
      table[oldest] = nil
      bytes -= oldest.utf8.count
      head += 1
    }
    if head > 64, head * 2 > order.count {
      order.removeFirst(head)
      head = 0
    }
    return text
  }
}
