import SendingStateHeadless
import SendingStateLua

/// The text of a report block — one step of `run` or `repl`, the final report's state or tree,
/// the preview's panel — built within a byte budget, so no screen can make the host build text
/// larger than the budget however large its strings, states or trees are.
///
/// Two limits, both documented in the README's Safety section:
///
/// - a string value longer than ``valueLimit`` (16 KiB) is cut there, its length shown:
///   `"xxxx… (4194305 bytes; cut at 16384)"`;
/// - a block stops growing past ``blockLimit`` (8 MiB, give or take the one value that crossed
///   it): the rest of a list, table or tree is left out and counted (``leftOut``); JSON stays
///   valid (a table or list ends with a `"…"` member or item that says how many were left out).
///
/// Cutting rather than failing: a report of a runaway screen still shows everything up to the
/// cut and still ends with the run's verdict, and the budget is the host's, not a setting.
///
/// Strings are JSON literals in which every character ``VisibleText`` escapes is written as a
/// `\u` escape, so a report holds no raw control character or bidi override.
///
/// ```swift
/// var block = ReportText()
/// block.appendValue(state)
/// print(block.text)
/// ```
public struct ReportText: Sendable {
  /// The most bytes of a string value shown; longer ones are cut (16 KiB).
  public static let valueLimit = 16 << 10
  /// The most bytes of one block (8 MiB).
  public static let blockLimit = 8 << 20

  /// The text so far.
  public private(set) var text = ""
  /// This block's budget in bytes.
  public let limit: Int
  /// How many items (views, table members, list items) were left out because the budget ran out.
  public private(set) var leftOut = 0
  /// The longest string value shown whole.
  public let valueLimit: Int

  /// An empty block with `limit` bytes of budget.
  public init(limit: Int = ReportText.blockLimit, valueLimit: Int = ReportText.valueLimit) {
    self.limit = max(0, limit)
    self.valueLimit = max(0, valueLimit)
  }

  /// Whether the budget is spent.
  public var isFull: Bool { text.utf8.count >= limit }

  /// Appends `piece` as it is (the caller's own words and punctuation).
  public mutating func append(_ piece: String) {
    text += piece
  }

  /// Appends `value` as a JSON string literal, cut past ``valueLimit``.
  public mutating func appendQuoted(_ value: String) {
    text += ReportText.quoted(value, limit: valueLimit)
  }

  // MARK: - Strings

  /// `value` as a JSON string literal: past `limit` bytes cut (on a character boundary) with its
  /// length shown, and `"`, `\`, and every character ``VisibleText`` escapes written as escapes.
  public static func quoted(_ value: String, limit: Int = valueLimit) -> String {
    let total = value.utf8.count
    let shown = total > limit ? prefix(value, bytes: limit) : Substring(value)
    let note = total > limit ? "… (\(total) bytes; cut at \(limit))" : ""
    guard needsEscaping(shown.utf8) else { return "\"" + shown + note + "\"" }
    // Runs of plain text are copied whole; only the characters to escape are written one by one.
    var out = "\""
    let scalars = shown.unicodeScalars
    var run = scalars.startIndex
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      if let escape = escape(scalar) {
        out += String(scalars[run..<index])
        out += escape
        run = scalars.index(after: index)
      }
      index = scalars.index(after: index)
    }
    out += String(scalars[run..<scalars.endIndex])
    return out + note + "\""
  }

  /// `value` cut past `limit` bytes with its length shown, as plain text (an id in the text
  /// form of a tree); control characters are left to the writer that prints it.
  public static func cut(_ value: String, limit: Int = valueLimit) -> String {
    let total = value.utf8.count
    guard total > limit else { return value }
    return prefix(value, bytes: limit) + "… (\(total) bytes; cut at \(limit))"
  }

  /// The longest prefix of `value` within `bytes` UTF-8 bytes that ends on a character boundary.
  static func prefix(_ value: String, bytes: Int) -> Substring {
    let utf8 = value.utf8
    var end = utf8.index(utf8.startIndex, offsetBy: max(0, bytes), limitedBy: utf8.endIndex) ?? utf8.endIndex
    // Back off to the start of a scalar (at most three bytes: continuation bytes are 10xxxxxx).
    while end > utf8.startIndex, end < utf8.endIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
    return value[..<end]
  }

  /// Whether any byte sequence in `bytes` is one ``quoted(_:limit:)`` escapes: `"`, `\`, C0,
  /// DEL, C1 (C2 80–9F), the bidi controls (E2 80 8E/8F/AA–AE, E2 81 A6–A9) or the Arabic
  /// letter mark (D8 9C). A byte scan, so plain text (the usual case) is copied whole.
  static func needsEscaping(_ bytes: Substring.UTF8View) -> Bool {
    func scan(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
      var index = 0
      let count = buffer.count
      while index < count {
        let byte = buffer[index]
        switch byte {
        case 0x00...0x1F, 0x22, 0x5C, 0x7F: return true
        case 0xC2:
          if index + 1 < count, (0x80...0x9F).contains(buffer[index + 1]) { return true }
        case 0xD8:
          if index + 1 < count, buffer[index + 1] == 0x9C { return true }
        case 0xE2:
          if index + 2 < count {
            let second = buffer[index + 1]
            let third = buffer[index + 2]
            if second == 0x80, third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third) { return true }
            if second == 0x81, (0xA6...0xA9).contains(third) { return true }
          }
        default: break
        }
        index += 1
      }
      return false
    }
    if let found = bytes.withContiguousStorageIfAvailable(scan) { return found }
    return Array(bytes).withUnsafeBufferPointer(scan)
  }

  /// The escape of `scalar` in a JSON string, or `nil` when it stays as it is.
  private static func escape(_ scalar: Unicode.Scalar) -> String? {
    switch scalar {
    case "\"": return "\\\""
    case "\\": return "\\\\"
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    case let other where other.value < 0x20 || VisibleText.needsEscape(other):
      let hex = String(other.value, radix: 16)
      return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    default: return nil
    }
  }

  // MARK: - Values

  /// Appends `value` as compact JSON with sorted keys (a list table as an array, a table with
  /// fields as an object, a mixed one as an object with its list's indices as keys; nil,
  /// functions and non-finite numbers as `null`).
  public mutating func appendValue(_ value: LuaValue) {
    switch value {
    case .nil, .opaque: text += "null"
    case .boolean(let flag): text += flag ? "true" : "false"
    case .integer(let integer): text += String(integer)
    case .number(let number): text += ReportText.number(number)
    case .string(let string): appendQuoted(string)
    case .table(let table):
      if table.fields.isEmpty, !table.sequence.isEmpty {
        text += "["
        for (offset, element) in table.sequence.enumerated() {
          if isFull {
            leftOut += table.sequence.count - offset
            if offset > 0 { text += "," }
            text += "\"… \(table.sequence.count - offset) more items left out (report budget \(limitText))\""
            break
          }
          if offset > 0 { text += "," }
          appendValue(element)
        }
        text += "]"
      } else {
        var members = table.fields
        for (offset, element) in table.sequence.enumerated() { members[String(offset + 1)] = element }
        let keys = members.keys.sorted()
        text += "{"
        for (offset, key) in keys.enumerated() {
          if isFull {
            leftOut += keys.count - offset
            if offset > 0 { text += "," }
            text += "\"…\":\"\(keys.count - offset) more fields left out (report budget \(limitText))\""
            break
          }
          if offset > 0 { text += "," }
          appendQuoted(key)
          text += ":"
          appendValue(members[key] ?? .nil)
        }
        text += "}"
      }
    }
  }

  /// `value` as bounded JSON text (see ``appendValue(_:)``) within `limit` bytes.
  public static func literal(_ value: LuaValue, limit: Int = blockLimit, valueLimit: Int = valueLimit) -> String {
    var block = ReportText(limit: limit, valueLimit: valueLimit)
    block.appendValue(value)
    return block.text
  }

  /// A finite number as JSON (integral values without a fraction); non-finite ones as `null`.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  var limitText: String { limit >= 1 << 20 && limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes" }

  // MARK: - Render trees

  /// A render value as JSON (strings cut).
  func valueText(_ value: RenderValue) -> String {
    switch value {
    case .string(let string): return ReportText.quoted(string, limit: valueLimit)
    case .strings(let list):
      // A list's strings share the one value budget.
      var out = "["
      var used = 0
      for (offset, item) in list.enumerated() {
        if used >= valueLimit {
          out += (offset > 0 ? "," : "") + "\"… \(list.count - offset) more left out\""
          break
        }
        let quoted = ReportText.quoted(item, limit: max(0, valueLimit - used))
        used += quoted.utf8.count
        out += (offset > 0 ? "," : "") + quoted
      }
      return out + "]"
    default: return value.jsonText
    }
  }

  /// Appends the text form of `node` (as `RenderNode.text`: `kind#id name=value …`, children
  /// indented by two spaces), stopping at the budget with a line that counts the views left out.
  public mutating func appendTree(_ node: RenderNode) {
    appendTreeLines(node, depth: 0)
    if leftOut > 0 { text += "\n… \(leftOut) more views left out (report budget \(limitText))" }
  }

  private mutating func appendTreeLines(_ node: RenderNode, depth: Int) {
    if isFull {
      leftOut += ReportText.count(node)
      return
    }
    if depth > 0 { text += "\n" }
    text += String(repeating: "  ", count: depth) + ReportText.cut(node.kind, limit: valueLimit)
    if let id = node.id { text += "#" + ReportText.cut(id, limit: valueLimit) }
    for property in node.properties {
      text += " " + ReportText.cut(property.name, limit: valueLimit) + "=" + valueText(property.value)
    }
    for child in node.children { appendTreeLines(child, depth: depth + 1) }
  }

  /// Appends the compact JSON form of `node` (as `RenderNode.json`: `kind`, `id`, the
  /// properties by name, `children`), leaving out, and counting, the views past the budget.
  public mutating func appendTreeJSON(_ node: RenderNode) {
    text += "{\"kind\":" + ReportText.quoted(node.kind, limit: valueLimit) + ",\"id\":"
    text += node.id.map { ReportText.quoted($0, limit: valueLimit) } ?? "null"
    for property in node.properties {
      text += "," + ReportText.quoted(property.name, limit: valueLimit) + ":" + valueText(property.value)
    }
    text += ",\"children\":["
    var written = 0
    for child in node.children {
      if isFull {
        leftOut += ReportText.count(child)
        continue
      }
      if written > 0 { text += "," }
      appendTreeJSON(child)
      written += 1
    }
    text += "]}"
  }

  /// How many views `node`'s subtree holds.
  static func count(_ node: RenderNode) -> Int {
    node.children.reduce(1) { $0 + count($1) }
  }
}
