import Foundation
import Testing

@testable import SendingStateTools

@Suite("check flags comparisons of an action with a string (never true: actions are tables)")
@MainActor
struct ActionComparisonLintTests {
  @Test("handle's first parameter compared with a string, either side, == or ~=; not in comments, not .type")
  func handle() throws {
    let path = toolFixture("lint/string_actions.lua")
    let source = try String(contentsOfFile: path, encoding: .utf8)
    let found = ActionComparisonLint.findings(in: source, path: "s.lua")
    #expect(found.map { $0.prefix { $0 != " " } } == ["s.lua:16:", "s.lua:18:", "s.lua:19:"], "\(found)")
    #expect(
      found.first
        == "s.lua:16: warning: `act == \"inc\"` is never true: actions reach handle as tables ({ type = \"inc\", … }), even when a callback returns the string; compare act.type == \"inc\""
    )
    #expect(found[1].contains("`'reset' == act`") && found[1].hasSuffix("compare act.type == 'reset'"))
    #expect(found[2].hasSuffix("compare act.type ~= \"noop\""))
  }

  @Test("reduce's second parameter is the action")
  func reduce() throws {
    let source = try String(contentsOfFile: toolFixture("lint/string_reduce.lua"), encoding: .utf8)
    #expect(ActionComparisonLint.findings(in: source, path: "r.lua").map { $0.prefix { $0 != " " } } == ["r.lua:9:"])
  }

  @Test("check reports them as problems of the screen; the examples have none")
  func check() throws {
    let problems = try Checker.check(paths: [toolFixture("lint")], environment: [:])
    #expect(problems.count == 4, "\(problems)")
    #expect(problems.allSatisfy { $0.message.contains("is never true: actions reach handle as tables") })
    #expect(try Checker.check(paths: [repoPath("examples")], environment: [:]).isEmpty)
  }
}
