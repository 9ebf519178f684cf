/// A semantic version, `MAJOR.MINOR.PATCH` with an optional `-prerelease` (build metadata after
/// `+` is ignored, as semver says).
///
/// ```swift
/// SemanticVersion("1.4.0")! < SemanticVersion("1.10.0")!   // true
/// ```
public struct SemanticVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// The major version: incompatible changes.
  public var major: Int
  /// The minor version: additions.
  public var minor: Int
  /// The patch version: fixes.
  public var patch: Int
  /// The pre-release label (`beta.1`), if any: it sorts before the release.
  public var prerelease: String?

  /// Creates a version from its parts.
  public init(_ major: Int, _ minor: Int, _ patch: Int, prerelease: String? = nil) {
    self.major = major
    self.minor = minor
    self.patch = patch
    self.prerelease = prerelease
  }

  /// Parses `1.2.3`, `1.2.3-beta.1` or `1.2.3+build`; `nil` for anything else (no `v`, no
  /// missing parts, no leading zeros).
  public init?(_ text: String) {
    let withoutBuild = text.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let parts = withoutBuild.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    let numbers = parts[0].split(separator: ".", omittingEmptySubsequences: false)
    guard numbers.count == 3 else { return nil }
    var values: [Int] = []
    for number in numbers {
      guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber),
        number == "0" || !number.hasPrefix("0"), let value = Int(number)
      else { return nil }
      values.append(value)
    }
    var label: String?
    if parts.count == 2 {
      guard !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
      else { return nil }
      label = String(parts[1])
    }
    self.init(values[0], values[1], values[2], prerelease: label)
  }

  /// `1.2.3` or `1.2.3-beta.1`.
  public var description: String { "\(major).\(minor).\(patch)" + (prerelease.map { "-\($0)" } ?? "") }

  /// Orders by major, minor, patch; a pre-release before its release; pre-release labels by
  /// their dot-separated parts (numbers numerically, numbers before words).
  public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
    if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
      return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
    switch (lhs.prerelease, rhs.prerelease) {
    case (nil, nil), (nil, _?): return false
    case (_?, nil): return true
    case (let left?, let right?):
      let a = left.split(separator: "."), b = right.split(separator: ".")
      for (x, y) in zip(a, b) where x != y {
        switch (Int(x), Int(y)) {
        case (let m?, let n?): return m < n
        case (_?, nil): return true
        case (nil, _?): return false
        case (nil, nil): return x < y
        }
      }
      return a.count < b.count
    }
  }

  /// Whether a plugin written against `required` runs on a host offering this API version:
  /// the same major version and at least the required minor (before 1.0, the same minor: every
  /// 0.x minor may break, as semver allows), and not an older patch of the same minor.
  public func satisfies(_ required: SemanticVersion) -> Bool {
    guard major == required.major else { return false }
    if major == 0, minor != required.minor { return false }
    return self >= required
  }
}
