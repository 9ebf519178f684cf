import Testing

@testable import SendingStateTools

@Suite("Colour")
struct TerminalTests {
  @Test("colour only on a terminal, never with NO_COLOR or TERM=dumb")
  func colorRules() {
    #expect(Terminal.colorAllowed(isTerminal: true, environment: ["TERM": "xterm-256color"]))
    #expect(!Terminal.colorAllowed(isTerminal: false, environment: [:]))
    #expect(!Terminal.colorAllowed(isTerminal: true, environment: ["NO_COLOR": "1"]))
    #expect(!Terminal.colorAllowed(isTerminal: true, environment: ["NO_COLOR": ""]))
    #expect(!Terminal.colorAllowed(isTerminal: true, environment: ["TERM": "dumb"]))
    #expect(Terminal.paint("✓", .green, enabled: true) == "\u{1B}[32m✓\u{1B}[0m")
    #expect(Terminal.paint("✓", .green, enabled: false) == "✓")
  }

  @Test("the test output is coloured when asked, plain when not")
  @MainActor
  func specColors() async throws {
    let plain = try await runSpecs([toolFixture("specs/printing_spec.lua")])
    #expect(!plain.output.contains("\u{1B}["))
    let colored = try await runSpecs([toolFixture("specs/printing_spec.lua")]) { $0.color = true }
    #expect(colored.output.contains("\u{1B}[32m✓\u{1B}[0m"))
  }
}
