import Foundation
import Testing

@Suite("README tutorial")
@MainActor
struct CounterTutorialTests {
  @Test("the tutorial runs and prints what the README says")
  func tutorialRuns() throws {
    #expect(
      try runCounterTutorial() == [
        "store: 0",
        "store: 1",
        "store: 2",
        """
        stack#counter axis="vertical" spacing=8
          label#count text="2"
          button#plus title="+" enabled=true selected=false
        """,
        "store: 0",
        "label: 0",
      ])
  }

  @Test("the README shows exactly the tutorial code that this suite compiles")
  func readmeMatchesTutorialSource() throws {
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let source = try String(contentsOf: here.deletingLastPathComponent().appendingPathComponent("CounterTutorial.swift"), encoding: .utf8)
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let code = try #require(section(of: source, from: "// tutorial:begin\n", to: "// tutorial:end"))
    let shown = try #require(section(of: readme, from: "<!-- tutorial:begin -->\n```swift\n", to: "```\n<!-- tutorial:end -->"))
    #expect(shown == code)
  }

  private func section(of text: String, from start: String, to end: String) -> String? {
    guard let lower = text.range(of: start), let upper = text.range(of: end, range: lower.upperBound..<text.endIndex)
    else { return nil }
    return String(text[lower.upperBound..<upper.lowerBound])
  }
}
