/// A usage mistake when driving a screen: an unknown id, a wrong event, a missing file.
///
/// Distinct from ``ScriptError`` (a fault in the script) so tools can tell them apart (the CLI
/// exits with 2 for these, 1 for script errors). Each message says how to fix it:
///
/// ```text
/// no view with id 'plu' (ids: count, plus, title)
/// ```
public enum ScreenUsageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The script file cannot be read.
  case missingFile(String)
  /// The path is a folder, not a screen script.
  case notAFile(String)
  /// No view has this id.
  case unknownView(String, known: [String])
  /// The event name is not a control event or a gesture.
  case unknownEvent(String)
  /// The view cannot take this interaction (e.g. typing into a label).
  case unsupported(String)
  /// The view is not a list.
  case notAList(String)
  /// The row index is outside the list.
  case rowOutOfRange(String, index: Int, count: Int)
  /// A value does not fit the control.
  case badValue(String)
  /// Time was advanced on a screen that runs on the machine's clock.
  case notVirtualClock

  /// What went wrong and how to fix it.
  public var description: String {
    switch self {
    case .missingFile(let path): "cannot read '\(path)' (check the path)"
    case .notAFile(let path): "'\(path)' is a folder, not a screen script (give the .lua file that returns the screen table)"
    case .unknownView(let id, let known): "no view with id '\(id)' (ids: \(known.joined(separator: ", ")))"
    case .unknownEvent(let name): "unknown event '\(name)' (\(ScreenEvents.eventNames))"
    case .unsupported(let message): message
    case .notAList(let id): "'\(id)' is not a list"
    case .rowOutOfRange(let id, let index, let count): "list '\(id)' has no row \(index) (rows 1…\(count))"
    case .badValue(let message): message
    case .notVirtualClock:
      "the screen runs on the machine's clock, which cannot be advanced (open it with a VirtualClock: options.clock, or ss.open(path, { clock = 0 }))"
    }
  }
}
