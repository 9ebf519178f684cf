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
/// Bounded like the CLI's reports, tighter (every page gets it, and a label shows one line): a
/// string value past ``valueLimit`` (4 KiB) is cut with its length shown, and once the tree's
/// values hold ``valueBudget`` bytes (1 MiB),
/// the rest are replaced by a note of their length — the tree's shape stays whole (patches and
/// events address views by it), so a message is at most the budget plus the shape (at most
/// `LuaRuntime.Limits.maxViews` views).
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

    init(_ item: ScreenPicture.Item, budget: inout Int) {
      kind = ReportText.cut(item.kind, limit: PreviewTree.nameLimit)
      id = item.id.map { ReportText.cut($0, limit: PreviewTree.nameLimit) }
      properties = item.properties.map { "\(jsonText($0.name)):\(PreviewTree.json($0.value, budget: &budget))" }
      frame = [item.frame.x, item.frame.y, item.frame.width, item.frame.height].map { ($0 * 100).rounded() / 100 }
      var children: [Node] = []
      children.reserveCapacity(item.children.count)
      for child in item.children { children.append(Node(child, budget: &budget)) }
      self.children = children
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

  /// The most bytes of all string values of one tree (1 MiB).
  package static let valueBudget = 1 << 20
  /// The most bytes of one string value shown (4 KiB).
  package static let valueLimit = 4 << 10
  /// The most bytes of a kind or an id shown (the page cannot address a longer id anyway).
  static let nameLimit = 1 << 10

  /// The page tree of a screen's render tree: its long strings cut first (see ``shown(_:)``),
  /// then laid out.
  package init(screen tree: RenderNode) {
    self.init(ScreenPicture(PreviewTree.shown(tree)))
  }

  /// `tree` with every string value past ``valueLimit`` cut, its length shown. Laying
  /// out measures text: a 4 MiB label took the layout about a second (60 of them a minute, on
  /// the main actor, per update); cut, it is as wide as the screen anyway.
  static func shown(_ tree: RenderNode) -> RenderNode {
    func cut(_ value: RenderValue) -> RenderValue {
      switch value {
      case .string(let text) where text.utf8.count > valueLimit: .string(ReportText.cut(text, limit: valueLimit))
      case .strings(let list) where list.contains(where: { $0.utf8.count > valueLimit }):
        .strings(list.map { ReportText.cut($0, limit: valueLimit) })
      default: value
      }
    }
    return RenderNode(
      kind: tree.kind, id: tree.id, properties: tree.properties.map { RenderProperty($0.name, cut($0.value)) },
      children: tree.children.map(shown))
  }

  /// The page tree of a laid-out screen.
  package init(_ picture: ScreenPicture) {
    var budget = PreviewTree.valueBudget
    root = Node(picture.root, budget: &budget)
  }

  /// A value as JSON: strings cut at ``valueLimit``, or, once `budget` is spent, a
  /// note of their length.
  static func json(_ value: RenderValue, budget: inout Int) -> String {
    func string(_ text: String) -> String {
      let size = min(text.utf8.count, valueLimit + 128)
      guard size <= budget else {
        return "\"… (\(text.utf8.count) bytes: left out, the screen's text is over the preview's \(valueBudget >> 20) MiB)\""
      }
      budget -= size
      // (Room for the note a cut string ends with: see ``shown(_:)``.)
      return ReportText.quoted(text, limit: valueLimit + 128)
    }
    switch value {
    case .string(let text): return string(text)
    case .strings(let list): return "[" + list.map(string).joined(separator: ",") + "]"
    default: return value.jsonText
    }
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
