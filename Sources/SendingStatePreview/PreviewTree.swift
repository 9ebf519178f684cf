import SendingStateHeadless
import SendingStateTools

/// A laid-out screen as the page receives it, and the patches that turn one into the next.
///
/// A node is `{"k": kind, "id": id, "p": {properties}, "f": [x, y, width, height], "c": [children]}`
/// with frames relative to the parent (``ScreenPicture``'s layout, so the page and the pictures
/// agree). A patch is a list of operations addressed by child-index paths from the screen:
///
/// - `{"op": "node", "path": [0, 2], "k", "id", "p", "f"}`: the node's own kind, properties and
///   frame changed (its children are patched separately);
/// - `{"op": "tree", "path": [0, 3], "node": {…}}`: the subtree is replaced (its shape changed:
///   another kind or another number of children).
///
/// ```swift
/// let before = PreviewTree(ScreenPicture(old))
/// let after = PreviewTree(ScreenPicture(new))
/// after.patch(from: before)   // only what changed
/// ```
package struct PreviewTree: Equatable, Sendable {
  /// One node.
  package struct Node: Equatable, Sendable {
    /// The view kind.
    package var kind: String
    /// The view id.
    package var id: String?
    /// The properties as JSON members (`"name":value`), in render-tree order.
    package var properties: [String]
    /// The frame: x, y, width, height.
    package var frame: [Double]
    /// The children.
    package var children: [Node]

    init(_ item: ScreenPicture.Item) {
      kind = item.kind
      id = item.id
      properties = item.properties.map { "\(jsonText($0.name)):\($0.value.jsonText)" }
      frame = [item.frame.x, item.frame.y, item.frame.width, item.frame.height].map { ($0 * 100).rounded() / 100 }
      children = item.children.map(Node.init)
    }

    /// The node's own members, without children: `"k":…,"id":…,"p":{…},"f":[…]`.
    var ownMembers: String {
      let frameText = frame.map { $0.isFinite ? formatted($0) : "0" }.joined(separator: ",")
      return "\"k\":\(jsonText(kind)),\"id\":\(id.map(jsonText) ?? "null"),\"p\":{\(properties.joined(separator: ","))},\"f\":[\(frameText)]"
    }

    /// The whole subtree as JSON.
    var json: String {
      "{\(ownMembers),\"c\":[\(children.map(\.json).joined(separator: ","))]}"
    }

    func sameOwn(as other: Node) -> Bool {
      kind == other.kind && id == other.id && properties == other.properties && frame == other.frame
    }
  }

  /// The screen node.
  package var root: Node

  /// The page tree of a laid-out screen.
  package init(_ picture: ScreenPicture) {
    root = Node(picture.root)
  }

  /// The whole tree as JSON.
  package var json: String { root.json }

  /// The operations that turn `old` into this tree, as JSON objects (empty when nothing changed).
  package func patch(from old: PreviewTree) -> [String] {
    var operations: [String] = []
    PreviewTree.diff(old.root, root, path: [], into: &operations)
    return operations
  }

  static func diff(_ old: Node, _ new: Node, path: [Int], into operations: inout [String]) {
    let pathText = "[" + path.map(String.init).joined(separator: ",") + "]"
    guard old.kind == new.kind, old.children.count == new.children.count else {
      operations.append("{\"op\":\"tree\",\"path\":\(pathText),\"node\":\(new.json)}")
      return
    }
    if !old.sameOwn(as: new) {
      operations.append("{\"op\":\"node\",\"path\":\(pathText),\(new.ownMembers)}")
    }
    for index in new.children.indices {
      diff(old.children[index], new.children[index], path: path + [index], into: &operations)
    }
  }
}

/// `text` as a JSON string literal.
func jsonText(_ text: String) -> String {
  RenderValue.string(text).jsonText
}

/// A number as JSON: integral values without a fraction.
func formatted(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}
