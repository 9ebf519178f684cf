import Foundation
import SendingStateLua
import SendingStateTestSupport
import Testing

@testable import SendingStateTools

/// The LCOV the coverage fixture (Fixtures/coverage: a screen, its module, a component of the
/// plugin beside it, a module the spec requires, one spec) must give: the lines that hold code,
/// each with its hits (a call spread over lines counts its first line again when it is made); the
/// branches the spec never takes (counter.lua:28, badge.lua:10, steps.lua:8, src/label.lua:8) at
/// 0; the spec file, the plugin's manifest, busted, and the host's own Lua (kernel, prelude, spec
/// host) nowhere.
let coverageFixtureLCOV = """
  TN:
  SF:counter.lua
  DA:2,1
  DA:4,1
  DA:5,1
  DA:6,1
  DA:9,2
  DA:10,1
  DA:11,1
  DA:12,1
  DA:13,1
  DA:14,1
  DA:17,2
  DA:18,3
  DA:21,2
  DA:22,2
  DA:25,1
  DA:26,2
  DA:28,0
  DA:30,2
  DA:31,1
  LF:19
  LH:18
  end_of_record
  TN:
  SF:plugins/badge/components/badge.lua
  DA:2,1
  DA:4,1
  DA:5,1
  DA:8,2
  DA:9,2
  DA:10,0
  DA:12,2
  DA:14,3
  DA:15,1
  LF:9
  LH:8
  end_of_record
  TN:
  SF:src/label.lua
  DA:2,1
  DA:4,1
  DA:5,1
  DA:6,1
  DA:8,0
  DA:9,1
  DA:11,1
  LF:7
  LH:6
  end_of_record
  TN:
  SF:steps.lua
  DA:2,1
  DA:4,1
  DA:5,1
  DA:6,1
  DA:8,0
  DA:9,1
  DA:11,1
  LF:7
  LH:6
  end_of_record

  """

/// The summary printed after the fixture's results.
let coverageFixtureSummary = """
  Coverage (coverage/lcov.info)
  File                                 Hits Missed Coverage
  counter.lua                            18      1   94.74%
  plugins/badge/components/badge.lua      8      1   88.89%
  src/label.lua                           6      1   85.71%
  steps.lua                               6      1   85.71%
  Total                                  38      4   90.48%

  """

@Suite("Coverage: lines that hold code, LCOV and the summary")
struct CoverageTests {
  @Test("the lines that hold code: every function's, nested ones too; not comments, blanks, else, nor a closing return")
  func codeLines() throws {
    let runtime = try LuaRuntime(configuration: .init(mode: .trusted))
    let lines = try runtime.callReturningReferences(try runtime.load(SpecCoverage.linesSource, chunkName: "=coverage"), with: [], context: nil)[0]
    let text = """
      -- a comment
      local M = {}

      local function helper(x)
        if x > 0 then
          return "positive"
        else
          return "other"
        end
      end

      function M.run(n)
        local t = {
          a = 1,
          b = helper(n),
        }
        return t
      end

      return M
      """
    let found = try runtime.call(lines, with: [.string(text), "m.lua"]).first?.tableValue?.sequence.compactMap(\.intValue)
    // (10 and 18 hold the CLOSURE of each function; 7, 9, 16 and 19 no code.)
    #expect(found == [2, 5, 6, 8, 10, 12, 13, 14, 15, 17, 18, 20])
    let broken = try runtime.call(lines, with: ["local = 1", "bad.lua"])
    #expect(broken.first == .nil)
    #expect(broken.dropFirst().first?.stringValue?.hasPrefix("bad.lua:1:") == true)
  }

  @Test("LCOV: SF, DA in line order, LF, LH, end_of_record, files by path; the summary aligns and totals")
  func lcovAndSummary() {
    let report = SpecCoverage(files: [
      .init(path: "b.lua", lines: [9: 0, 3: 2]),
      .init(path: "a/long_name.lua", lines: [1: 1]),
    ])
    #expect(
      report.lcov
        == "TN:\nSF:a/long_name.lua\nDA:1,1\nLF:1\nLH:1\nend_of_record\nTN:\nSF:b.lua\nDA:3,2\nDA:9,0\nLF:2\nLH:1\nend_of_record\n")
    #expect(
      report.summary == """
        Coverage (coverage/lcov.info)
        File              Hits Missed Coverage
        a/long_name.lua      1      0  100.00%
        b.lua                1      1   50.00%
        Total                2      1   66.67%

        """)
    #expect(SpecCoverage(files: []).summary == "Coverage (coverage/lcov.info): no line of a screen, module or plugin ran\n")
    #expect(SpecCoverage(files: []).lcov == "")
  }

  @Test("--coverage and --no-coverage reach busted (which merges them over .busted's coverage)")
  func bustedArguments() {
    var options = SpecOptions()
    #expect(!options.bustedArguments.contains { $0.contains("coverage") })
    options.coverage = true
    #expect(options.bustedArguments == ["--ignore-lua", "--coverage"])
    options.coverage = false
    #expect(options.bustedArguments == ["--ignore-lua", "--no-coverage"])
  }
}

/// A copy of the coverage fixture in a fresh temporary folder (its own project: `.busted` names
/// `spec/`), removed by the caller.
func coverageProject(busted: String? = nil) throws -> URL {
  let folder = try temporaryFolder("ss-coverage")
  let files = FileManager.default
  for name in try files.contentsOfDirectory(atPath: toolFixture("coverage")) {
    try files.copyItem(atPath: toolFixture("coverage/\(name)"), toPath: folder.appendingPathComponent(name).path)
  }
  if let busted { try Data(busted.utf8).write(to: folder.appendingPathComponent(".busted")) }
  return folder
}

/// Where genhtml is, if installed (Debian's `lcov`; scripts/test.sh installs it).
let genhtmlPath = ["/usr/bin/genhtml", "/usr/local/bin/genhtml"].first { FileManager.default.isExecutableFile(atPath: $0) }

extension CLIEndToEndTests {
  @Suite("sendingstate test --coverage, end to end")
  struct CoverageCommandTests {
    @Test("--coverage writes coverage/lcov.info with the fixture's known hit lines and prints the summary before the closing line")
    func coverageFlag() async throws {
      let project = try coverageProject()
      defer { try? FileManager.default.removeItem(at: project) }
      let result = try await runCLI(["test", "--coverage"], in: project.path)
      #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
      let lcov = try String(contentsOf: project.appendingPathComponent("coverage/lcov.info"), encoding: .utf8)
      #expect(lcov == coverageFixtureLCOV)
      #expect(result.stdout.hasSuffix("\n" + coverageFixtureSummary + "1 passed, 0 failed\n"), "\(result.stdout)")
      for never in ["spec", "plugin.lua", "kernel", "prelude", "sendingstate/", "busted", "luassert"] {
        #expect(!lcov.contains(never), "\(never) in \(lcov)")
      }
      // Without it: no coverage folder, no summary.
      let plain = try coverageProject()
      defer { try? FileManager.default.removeItem(at: plain) }
      let off = try await runCLI(["test"], in: plain.path)
      #expect(off.status == 0)
      #expect(!FileManager.default.fileExists(atPath: plain.appendingPathComponent("coverage").path))
      #expect(!off.stdout.contains("Coverage"))
    }

    @Test(".busted's coverage = true turns it on (and --no-coverage off again)")
    func bustedConfiguration() async throws {
      let project = try coverageProject(busted: "return { default = { ROOT = { \"spec\" }, coverage = true } }\n")
      defer { try? FileManager.default.removeItem(at: project) }
      let off = try await runCLI(["test", "--no-coverage"], in: project.path)
      #expect(off.status == 0)
      #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("coverage").path))
      let result = try await runCLI(["test"], in: project.path)
      #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
      let lcov = try String(contentsOf: project.appendingPathComponent("coverage/lcov.info"), encoding: .utf8)
      #expect(lcov == coverageFixtureLCOV)
    }

    @Test("with a machine output, stdout stays the document and the summary goes to stderr")
    func machineOutput() async throws {
      let project = try coverageProject()
      defer { try? FileManager.default.removeItem(at: project) }
      let result = try await runCLI(["test", "--coverage", "--output", "json"], in: project.path)
      #expect(result.status == 0)
      #expect(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) is [String: Any], "\(result.stdout)")
      #expect(result.stderr.hasSuffix(coverageFixtureSummary + "1 passed, 0 failed\n"), "\(result.stderr)")
    }

    @Test("genhtml (Debian's lcov) renders coverage/lcov.info", .enabled(if: genhtmlPath != nil, "genhtml is not installed (apt-get install lcov)"))
    func genhtmlRenders() async throws {
      let project = try coverageProject()
      defer { try? FileManager.default.removeItem(at: project) }
      #expect(try await runCLI(["test", "--coverage"], in: project.path).status == 0)
      let genhtml = try ChildProcess(
        executable: try #require(genhtmlPath), arguments: ["coverage/lcov.info", "--output-directory", "coverage/html"],
        directory: project.path)
      genhtml.closeInput()
      let status = await genhtml.wait()
      #expect(status == 0, "\(genhtml.output)\(genhtml.errors)")
      #expect(genhtml.output.contains("lines......: 90.5% (38 of 42 lines)"), "\(genhtml.output)")
      #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("coverage/html/index.html").path))
    }
  }
}
