import Foundation
import SendingStateTestSupport
import Testing

@testable import SendingStateTools

/// The characters no script may get onto the user's terminal as they are, checked here by an
/// independent list: C0 controls but newline and tab, DEL, C1 controls, and the bidi
/// embeddings, overrides and isolates.
func rawControls(in text: String) -> [String] {
  text.unicodeScalars.filter { scalar in
    switch scalar.value {
    case 0x09, 0x0A: false
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }.map { String($0.value, radix: 16) }
}

@Suite("Printable output: what a script controls reaches the terminal escaped")
struct VisibleTextTests {
  @Test("control characters and bidi controls are escaped visibly; newline, tab and the rest stay")
  func escaped() {
    #expect(VisibleText.escaped("plain text, naïve 😀\n\tnext") == "plain text, naïve 😀\n\tnext")
    #expect(VisibleText.escaped("a\u{1B}[2K\rb") == "a\\u{1B}[2K\\u{D}b")
    #expect(VisibleText.escaped("\u{0}\u{7F}\u{85}\u{9F}") == "\\u{0}\\u{7F}\\u{85}\\u{9F}")
    #expect(VisibleText.escaped("\u{202A}\u{202E}\u{2066}\u{2069}\u{200F}") == "\\u{202A}\\u{202E}\\u{2066}\\u{2069}\\u{200F}")
    let every = String(String.UnicodeScalarView((0...0x2100).compactMap(Unicode.Scalar.init)))
    #expect(rawControls(in: VisibleText.escaped(every)).isEmpty)
  }

  @Test("report strings are JSON with those characters as \\u escapes, cut past the value limit with their length")
  func quoted() throws {
    #expect(ReportText.quoted("say \"hi\"\\") == #""say \"hi\"\\""#)
    #expect(ReportText.quoted("\u{1B}\u{85}\u{202E}\n") == #""\u001b\u0085\u202e\n""#)
    let long = String(repeating: "é", count: 20_000)  // 40,000 bytes
    let cut = ReportText.quoted(long, limit: 100)
    #expect(cut == "\"" + String(repeating: "é", count: 50) + "… (40000 bytes; cut at 100)\"")
    let decoded = try JSONSerialization.jsonObject(with: Data(ReportText.quoted("\u{1B}x\u{2066}").utf8), options: .fragmentsAllowed)
    #expect(decoded as? String == "\u{1B}x\u{2066}")
  }
}

extension CLIEndToEndTests {
  @Suite("Printable output, end to end: a forging screen cannot erase or reorder file:line")
  struct PrintableOutputTests {
    static let screen = "Tests/SendingStateToolsTests/Fixtures/hostile/forged_error.lua"

    @Test("the tree, a script error, print output and the state diff are escaped on stdout and stderr")
    func text() async throws {
      let tree = try await runCLI(["run", PrintableOutputTests.screen])
      #expect(tree.status == 0, "\(tree.stderr)")
      #expect(rawControls(in: tree.stdout).isEmpty, "\(rawControls(in: tree.stdout))")
      // (A tree's values are JSON literals: escaped the JSON way.)
      #expect(tree.stdout.contains("\\u001b[2K\\rother.lua:1: all fine\\u202eeman\\u0085\\u007f"), "\(tree.stdout)")

      let error = try await runCLI(["run", PrintableOutputTests.screen, "--send", "tap fail"])
      #expect(error.status == 1)
      #expect(rawControls(in: error.stderr).isEmpty, "\(rawControls(in: error.stderr))")
      #expect(
        error.stderr.contains("forged_error.lua:18: in event 'touchUpInside' on 'fail': \\u{1B}[2K\\u{D}other.lua:1: all fine\\u{202E}eman"),
        "\(error.stderr)")

      let printed = try await runCLI(["run", PrintableOutputTests.screen, "--send", "tap say"])
      #expect(printed.status == 0, "\(printed.stderr)")
      #expect(rawControls(in: printed.stdout).isEmpty, "\(rawControls(in: printed.stdout))")
      #expect(printed.stdout.contains("\\u{1B}[2K\\u{D}other.lua:1: all fine"))
    }

    @Test("--format json stays valid JSON with no raw control character; print output on stderr is escaped")
    func json() async throws {
      let result = try await runCLI(["run", PrintableOutputTests.screen, "--send", "tap say", "--format", "json"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(rawControls(in: result.stdout).isEmpty && rawControls(in: result.stderr).isEmpty)
      let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      let note = (report["state"] as? [String: Any])?["note"] as? String
      #expect(note?.hasSuffix("\u{85}\u{7F}\u{1B}") == true)
    }

    @Test("the REPL, an unknown id and argument-parser's own errors are escaped too")
    func others() async throws {
      let repl = try await runCLI(["repl", PrintableOutputTests.screen], input: "tap fail\nstate\ntap say\n")
      #expect(rawControls(in: repl.stdout).isEmpty && rawControls(in: repl.stderr).isEmpty, "\(repl.stdout)\(repl.stderr)")
      #expect(repl.stderr.contains("\\u{1B}[2K"))
      let unknown = try await runCLI(["run", PrintableOutputTests.screen, "--send", "tap \u{1B}[2J\u{202E}"])
      #expect(unknown.status == 2)
      #expect(rawControls(in: unknown.stderr).isEmpty && unknown.stderr.contains("\\u{1B}[2J\\u{202E}"), "\(unknown.stderr)")
      let option = try await runCLI(["run", PrintableOutputTests.screen, "--\u{1B}[2J"])
      #expect(option.status == 2)
      #expect(rawControls(in: option.stderr).isEmpty, "\(option.stderr)")
    }
  }
}
