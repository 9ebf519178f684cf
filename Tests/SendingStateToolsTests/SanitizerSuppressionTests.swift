import Foundation
import Testing

/// The LeakSanitizer suppressions (scripts/lsan.supp) name only library internals; these checks
/// keep them from ever hiding a leak of ours.
@Suite("Sanitizer suppressions")
struct SanitizerSuppressionTests {
  /// Every `leak:` pattern of the suppressions file.
  private func patterns() throws -> [String] {
    try String(contentsOfFile: repoPath("scripts/lsan.supp"), encoding: .utf8)
      .split(separator: "\n").filter { $0.hasPrefix("leak:") }.map { String($0.dropFirst(5)) }
  }

  @Test("no pattern can match a symbol of our own modules")
  func patternsNameLibrariesOnly() throws {
    let all = try patterns()
    #expect(all.count >= 2)
    for pattern in all {
      #expect(!pattern.contains("SendingState") && !pattern.contains("CLuaShim") && !pattern.contains("lua"),
        "lsan.supp: '\(pattern)' could match our own code")
    }
  }
}
