import Foundation
import Testing

@Suite("README")
struct ReadmeTests {
  @Test("every file the README shows is shown exactly as it is")
  func embeddedFilesMatch() throws {
    let readme = try String(contentsOfFile: repoPath("README.md"), encoding: .utf8)
    var checked = 0
    var rest = readme[...]
    while let marker = rest.range(of: "<!-- file:") {
      let nameEnd = try #require(rest[marker.upperBound...].range(of: " -->"))
      let name = String(rest[marker.upperBound..<nameEnd.lowerBound])
      let codeStart = try #require(rest[nameEnd.upperBound...].range(of: "```lua\n"))
      let codeEnd = try #require(rest[codeStart.upperBound...].range(of: "```\n"))
      let shown = String(rest[codeStart.upperBound..<codeEnd.lowerBound])
      #expect(shown == (try String(contentsOfFile: repoPath(name), encoding: .utf8)), "\(name)")
      checked += 1
      rest = rest[codeEnd.upperBound...]
    }
    #expect(checked >= 2)
  }

  @Test("the README's two commands are the scripts that exist")
  func twoCommands() throws {
    let readme = try String(contentsOfFile: repoPath("README.md"), encoding: .utf8)
    #expect(readme.contains("scripts/sendingstate run examples/counter/counter.lua --send 'tap plus'"))
    #expect(readme.contains("scripts/test.sh"))
    #expect(FileManager.default.isExecutableFile(atPath: repoPath("scripts/sendingstate")))
    #expect(FileManager.default.isExecutableFile(atPath: repoPath("scripts/test.sh")))
  }
}
