/// Text a script controls, made safe to show: every character that steers a terminal or the
/// direction of text instead of showing up is written as a visible escape (`\u{1B}`).
///
/// A script's error message, warning, printed line, view text or state string could otherwise
/// carry `ESC [2K` or `CR` (erasing the `file:line` before it on a terminal) or a bidi override
/// (showing `file:line` backwards). Escaped: C0 controls except newline and tab, DEL, C1
/// controls, the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the
/// bidi marks (U+200E, U+200F, U+061C).
///
/// ```swift
/// VisibleText.escaped("boom\u{1B}[2K\rscreen.lua:1: fine")   // "boom\\u{1B}[2K\\u{D}screen.lua:1: fine"
/// ```
public enum VisibleText {
  /// Whether `scalar` is shown escaped.
  public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A: false
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
    default: false
    }
  }

  /// `text` with every character ``needsEscape(_:)`` names written as `\u{HEX}`.
  public static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if needsEscape(scalar) {
        out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }
}
