import Foundation
import SendingStateLua

/// The differences between two states, one line each: `count: 1 → 2`, `+ cart.tea: 1`, `- note`.
///
/// ```swift
/// StateDiff.lines(from: ["count": 1], to: ["count": 2])   // ["count: 1 → 2"]
/// ```
public enum StateDiff {
  /// The changed paths, sorted, as readable lines.
  public static func lines(from old: LuaValue, to new: LuaValue) -> [String] {
    var lines: [String] = []
    diff(old, new, path: "", into: &lines)
    return lines
  }

  private static func diff(_ old: LuaValue, _ new: LuaValue, path: String, into lines: inout [String]) {
    guard old != new else { return }
    if case .table(let a) = old, case .table(let b) = new {
      for key in Set(a.fields.keys).union(b.fields.keys).sorted() {
        diff(a.fields[key] ?? .nil, b.fields[key] ?? .nil, path: path.isEmpty ? key : "\(path).\(key)", into: &lines)
      }
      for index in 0..<max(a.sequence.count, b.sequence.count) {
        let left = index < a.sequence.count ? a.sequence[index] : .nil
        let right = index < b.sequence.count ? b.sequence[index] : .nil
        diff(left, right, path: "\(path)[\(index + 1)]", into: &lines)
      }
      return
    }
    let name = path.isEmpty ? "state" : path
    switch (old, new) {
    case (.nil, _): lines.append("+ \(name): \(literal(new))")
    case (_, .nil): lines.append("- \(name)")
    default: lines.append("\(name): \(literal(old)) → \(literal(new))")
    }
  }

  /// A value as compact JSON text (sorted keys).
  public static func literal(_ value: LuaValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "?" }
    return String(decoding: data, as: UTF8.self)
  }
}
