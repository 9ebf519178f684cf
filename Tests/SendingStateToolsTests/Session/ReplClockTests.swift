import Foundation
import SendingStateLua
import SendingStateTools
import Testing

@Suite("REPL clock: pending, clock and advance on a virtual clock")
@MainActor
struct ReplClockTests {
  func repl(virtual: Bool) throws -> Repl {
    var options = LuaScreen.Options()
    if virtual { options.clock = VirtualClock() }
    return Repl(session: try ScreenSession(path: repoPath("spec/screens/rewind.lua"), options: options))
  }

  @Test("timers wait for advance; pending lists them soonest first; advance next reaches each, one step per delivery")
  func advanceNext() async throws {
    let repl = try repl(virtual: true)
    defer { repl.session.screen.close() }
    _ = await repl.handle("tap tick")
    _ = await repl.handle("tap search")
    #expect(repl.session.screen.state["ticks"] == .integer(0))
    #expect(await repl.handle("pending").output == "#2 'query' after, debounce 0.500 s: due at 0.500 (in 0.500 s)\n#1 after: due at 1.000 (in 1.000 s)")
    let first = await repl.handle("advance next")
    #expect(!first.isError && first.output.contains("> effect: searched") && first.output.contains("(clock at 0.500 s, moved 0.500 s; 1 effect(s) pending)"), "\(first.output)")
    #expect(await repl.handle("clock").output == "clock: virtual, at 0.500 s (it moves only with advance); next timer due at 1.000 (in 0.500 s)")
    let small = await repl.handle("advance 0.25")
    #expect(!small.output.contains("effect:") && repl.session.screen.state["ticks"] == .integer(0))
    let second = await repl.handle("advance next")
    #expect(second.output.contains("ticks: 0 → 1") && repl.session.screen.clockNow == 1)
    #expect(await repl.handle("pending").output == "(nothing pending)")
    let nothing = await repl.handle("advance next")
    #expect(nothing.isError && nothing.output.contains("nothing waits on the screen's clock"))
  }

  @Test("advance refuses negative, NaN, infinite and huge amounts and the machine's clock, moving nothing")
  func badAdvances() async throws {
    let repl = try repl(virtual: true)
    defer { repl.session.screen.close() }
    _ = await repl.handle("tap tick")
    for word in ["-1", "nan", "inf", "1e400", "86401", "soon"] {
      let answer = await repl.handle("advance \(word)")
      #expect(answer.isError && answer.output.contains("advance takes seconds from 0 to 86400"), "\(word): \(answer.output)")
    }
    #expect(await repl.handle("advance").isError)
    #expect(repl.session.screen.clockNow == 0 && repl.session.screen.pendingEffects == 1)
    let machine = try self.repl(virtual: false)
    defer { machine.session.screen.close() }
    let refused = await machine.handle("advance 1")
    #expect(refused.isError && refused.output.contains("start the repl with --virtual-clock"))
    #expect(await machine.handle("clock").output.hasPrefix("clock: the machine's"))
    #expect(Repl.completions(after: ["advance"], ids: []) == ["next"])
  }

  @Test("the README's repl --virtual-clock session is what the command prints")
  func readmeSession() async throws {
    let result = try await runCLI(
      ["repl", "--virtual-clock", "spec/screens/rewind.lua"], input: "tap search\ntap tick\npending\nadvance next\nclock\nadvance -1\n")
    #expect(result.status == 1)
    let readme = try String(contentsOfFile: repoPath("README.md"), encoding: .utf8)
    let tree = ["stack#", "  button#", "  label#"]
    let lines = (result.stdout + result.stderr).split(separator: "\n").filter { line in !tree.contains { line.hasPrefix($0) } }
    #expect(lines.count == 15, "\(lines)")
    for line in lines { #expect(readme.contains(line), "README lacks: \(line)") }
  }
}
