import Foundation
import SendingStateLua

/// The differences between two states, one line each: `count: 1 → 2`, `+ cart.tea: 1`, `- note`.
///
/// Bounded for display: each value is shown as ``ReportText`` shows it (strings past 16 KiB cut
/// with their length), each key in a path is cut past 1 KiB, and past ``lineBudget`` bytes of
/// lines the rest is counted in one last line (`… 12 more changes left out`).
///
/// ```swift
/// StateDiff.lines(from: ["count": 1], to: ["count": 2])   // ["count: 1 → 2"]
/// ```
public enum StateDiff {
  /// The most bytes of diff lines for one step (256 KiB).
  public static let lineBudget = 256 << 10
  /// The most bytes of one key shown in a path.
  static let keyLimit = 1 << 10

  /// The changed paths, sorted, as readable lines.
  public static func lines(from old: LuaValue, to new: LuaValue) -> [String] {
    var collector = Collector()
    diff(old, new, path: "", into: &collector)
    if collector.leftOut > 0 {
      collector.lines.append("… \(collector.leftOut) more changes left out (at most \(lineBudget >> 10) KiB of changes a step)")
    }
    return collector.lines
  }

  private struct Collector {
    var lines: [String] = []
    var bytes = 0
    var leftOut = 0

    mutating func add(_ line: @autoclosure () -> String) {
      guard bytes < StateDiff.lineBudget else {
        leftOut += 1
        return
      }
      let text = line()
      bytes += text.utf8.count
      lines.append(text)
    }
  }

  private static func diff(_ old: LuaValue, _ new: LuaValue, path: String, into collector: inout Collector) {
    guard old != new else { return }
    if case .table(let a) = old, case .table(let b) = new {
      for key in Set(a.fields.keys).union(b.fields.keys).sorted() {
        let name = ReportText.cut(key, limit: keyLimit)
        diff(a.fields[key] ?? .nil, b.fields[key] ?? .nil, path: path.isEmpty ? name : "\(path).\(name)", into: &collector)
      }
      for index in 0..<max(a.sequence.count, b.sequence.count) {
        let left = index < a.sequence.count ? a.sequence[index] : .nil
        let right = index < b.sequence.count ? b.sequence[index] : .nil
        diff(left, right, path: "\(path)[\(index + 1)]", into: &collector)
      }
      return
    }
    let name = path.isEmpty ? "state" : path
    switch (old, new) {
    case (.nil, _): collector.add("+ \(name): \(shown(new))")
    case (_, .nil): collector.add("- \(name)")
    default: collector.add("\(name): \(shown(old)) → \(shown(new))")
    }
  }

  /// A value in a diff line: bounded JSON (``ReportText``).
  static func shown(_ value: LuaValue) -> String {
    ReportText.literal(value, limit: ReportText.valueLimit)
  }

  /// A value as compact JSON text (sorted keys), whole: for data handed on (a fake fetch
  /// answer's body), not for display (see ``ReportText/literal(_:limit:valueLimit:)``).
  public static func literal(_ value: LuaValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "?" }
    return String(decoding: data, as: UTF8.self)
  }
}
