/// Something a picture left out or shortened to stay within its ``PictureBudget``.
public struct PictureCut: Sendable, Hashable, CustomStringConvertible {
  /// Which budget ran out.
  public enum Kind: String, Sendable, Hashable {
    /// Views past ``PictureBudget/maxViews``.
    case views
    /// Views deeper than ``PictureBudget/maxDepth``.
    case depth
    /// A text longer than ``PictureBudget/maxTextCharacters``.
    case text
    /// Segments past ``PictureBudget/maxSegments``.
    case segments
    /// Texts past ``PictureBudget/maxTextWork``.
    case textWork
    /// A screen taller than ``PictureBudget/maxHeight``.
    case height
    /// Drawing commands past ``PictureBudget/maxCommands``.
    case commands
    /// SVG elements past ``PictureBudget/maxSVGBytes``.
    case svgBytes
  }

  /// Which budget.
  public var kind: Kind
  /// Where: the path of the first view cut (`root › list › label#title`), or `screen`.
  public var place: String
  /// What was cut, in words (`a text of 4,194,304 characters, cut to 512`).
  public var detail: String

  /// `text at root › label#big: a text of 4194304 characters, cut to 512`, with control
  /// characters escaped (a view id is a script's text: it must not move a terminal's cursor).
  public var description: String { PictureCut.printable("\(kind.rawValue) at \(place): \(detail)") }

  /// `text` with control characters (C0, DEL, C1) written as `\u{1b}`.
  static func printable(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value) {
        out += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
