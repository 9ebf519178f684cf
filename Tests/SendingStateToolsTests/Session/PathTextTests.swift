import Foundation
import SendingStateTools
import Testing

@Suite("Paths as text: no Foundation trap on any path shape")
struct PathTextTests {
  @Test("the folder of a path, without NSString (which traps on 'a', '.', 'a/')")
  func folder() {
    let cases: [(String, String)] = [
      ("a", "."), (".", "."), ("-", "."), ("a/", "."), ("./", "."), ("a//", "."), ("", "."), ("/", "/"), ("//", "/"),
      ("/a", "/"), ("/a/", "/"), ("x/y", "x"), ("x/y/", "x"), ("x//y", "x"), ("./a", "."), ("../a", ".."),
      ("/srv/app/x.lua", "/srv/app"), ("e\u{301}", "."),
    ]
    for (path, expected) in cases { #expect(PathText.folder(of: path) == expected, "\(path)") }
  }

  @Test("the name of a path")
  func name() {
    let cases: [(String, String)] = [("a", "a"), ("a/", "a"), ("/", ""), ("", ""), ("x/y.lua", "y.lua"), ("/x/y/", "y")]
    for (path, expected) in cases { #expect(PathText.name(of: path) == expected, "\(path)") }
  }

  @Test("CLI paths: slashes collapsed and trimmed, one-character names get ./, the rest as typed")
  func argument() {
    let cases: [(String, String)] = [
      ("a", "./a"), (".", "./."), ("-", "./-"), ("a/", "./a"), ("a//", "./a"), ("./", "./."), ("", ""), ("/", "/"),
      ("//", "/"), ("screen.lua", "screen.lua"), ("examples//counter/", "examples/counter"), ("e\u{301}", "./e\u{301}"),
      ("d/.", "d/."),
    ]
    for (path, expected) in cases { #expect(PathText.argument(path) == expected, "\(path)") }
  }
}
