import Foundation
import SendingStateHeadless
import SendingStateTools
import Testing

@testable import SendingStatePreview

@Suite("Preview tree: the laid-out screen as JSON, and patches of what changed")
@MainActor
struct PreviewTreeTests {
  func tree(count: String, extra: Bool = false) -> PreviewTree {
    let root = StackView(id: "root", axis: .vertical, spacing: 8)
    root.addSubview(Label(id: "count", text: count))
    root.addSubview(Button(id: "plus", title: "+"))
    if extra { root.addSubview(Label(id: "extra", text: "new")) }
    return PreviewTree(ScreenPicture(root.renderTree()))
  }

  @Test("the JSON carries kind, id, properties, frame and children")
  func json() throws {
    let value = try object(tree(count: "1").json)
    #expect(value["k"] as? String == "screen")
    let root = try #require((value["c"] as? [[String: Any]])?.first)
    #expect(root["id"] as? String == "root")
    #expect((root["f"] as? [Double])?.prefix(2) == [16, 16])
    let count = try #require((root["c"] as? [[String: Any]])?.first)
    #expect((count["p"] as? [String: Any])?["text"] as? String == "1")
  }

  @Test("nothing changed: no operations; a property changed: one node operation at its path")
  func nodePatch() throws {
    #expect(tree(count: "1").patch(from: tree(count: "1")).isEmpty)
    let operations = tree(count: "2").patch(from: tree(count: "1"))
    try #require(operations.count == 1)
    let operation = try object(operations[0])
    #expect(operation["op"] as? String == "node")
    #expect(operation["path"] as? [Int] == [0, 0])
    #expect((operation["p"] as? [String: Any])?["text"] as? String == "2")
    #expect(operation["c"] == nil)
  }

  @Test("a new child replaces the parent's subtree (and the screen grows)")
  func treePatch() throws {
    let operations = tree(count: "1", extra: true).patch(from: tree(count: "1"))
    try #require(operations.count == 2)
    let screen = try object(operations[0])
    #expect(screen["op"] as? String == "node" && screen["path"] as? [Int] == [])
    let operation = try object(operations[1])
    #expect(operation["op"] as? String == "tree")
    #expect(operation["path"] as? [Int] == [0])
    #expect((((operation["node"] as? [String: Any])?["c"]) as? [Any])?.count == 3)
  }
}
