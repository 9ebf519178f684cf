import Foundation

/// What the standard streams are connected to, for colour and line editing.
///
/// Colour follows the common convention: only on a terminal, never when `NO_COLOR` is set (to
/// anything) or `TERM` is `dumb`.
///
/// ```swift
/// let green = Terminal.paint("✓", .green, enabled: Terminal.colorOnStandardOutput)
/// ```
public enum Terminal {
  /// An ANSI colour.
  public enum Color: String, Sendable {
    /// Success.
    case green = "32"
    /// Failure.
    case red = "31"
    /// Pending, warnings.
    case yellow = "33"
    /// Headings.
    case bold = "1"
    /// Secondary text.
    case dim = "2"
  }

  /// Whether standard output gets colours.
  public static var colorOnStandardOutput: Bool { colorAllowed(isTerminal: isatty(1) != 0) }

  /// Whether standard error gets colours.
  public static var colorOnStandardError: Bool { colorAllowed(isTerminal: isatty(2) != 0) }

  /// Whether colour is allowed on a stream that is (or is not) a terminal, given `environment`.
  public static func colorAllowed(
    isTerminal: Bool, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
  }

  /// `text` in `color` when `enabled`.
  public static func paint(_ text: String, _ color: Color, enabled: Bool) -> String {
    enabled ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
  }
}
