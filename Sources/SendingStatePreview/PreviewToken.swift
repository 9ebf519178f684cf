/// The secret in a preview's URL: 128 random bits as 32 hex digits. Every request must carry it
/// (`/TOKEN/…`), so another user or a web page on the same machine cannot drive the screen.
///
/// ```swift
/// let token = PreviewToken()
/// token.matches("deadbeef…")   // compares in constant time
/// ```
package struct PreviewToken: Sendable, CustomStringConvertible {
  /// The hex digits.
  package let value: String

  /// A fresh token from the system's secure random source.
  package init() {
    var generator = SystemRandomNumberGenerator()
    value = (0..<16).map { _ in
      let byte = UInt8.random(in: 0...255, using: &generator)
      return (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }.joined()
  }

  /// A given token (tests).
  package init(value: String) {
    self.value = value
  }

  /// A token written as a preview writes one (32 lowercase hex digits: `--token`, a remembered
  /// URL), or nil.
  package init?(parsing text: String) {
    guard text.utf8.count == 32, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
    value = text
  }

  /// Whether `candidate` is the token, in time that does not depend on where they differ.
  package func matches<S: StringProtocol>(_ candidate: S) -> Bool {
    let expected = Array(value.utf8)
    let given = Array(candidate.utf8)
    var difference = UInt8(expected.count == given.count ? 0 : 1)
    for index in expected.indices {
      difference |= expected[index] ^ (index < given.count ? given[index] : 0)
    }
    return difference == 0
  }

  /// The token.
  package var description: String { value }
}
