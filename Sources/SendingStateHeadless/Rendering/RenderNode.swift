/// A deterministic snapshot of a view tree, for tests, tools and the CLI.
///
/// Two forms, both stable across runs: ``text`` (indented, one node a line) and ``json``
/// (`kind`, `id`, the node's properties by name, `children`):
///
/// ```swift
/// let tree = root.renderTree()
/// print(tree.text)
/// // stack#root axis="vertical" spacing=0
/// //   label#count text="1"
/// //   button#plus title="+" enabled=true selected=false
/// ```
///
/// A node lists its kind's own properties always, in a fixed order, then the shared view
/// properties only where they differ from the defaults (`hidden=true`, `alpha≠1`, `enabled=false`
/// for non-controls), so snapshots show what matters. `View.renderTree()` shows indices as the
/// views' Swift properties hold them, from 0 (a segmented control's `selectedIndex`, a list's
/// `first`, a row's `index`); a Lua screen's tree (`LuaScreen.renderTree()`) counts them from 1,
/// as scripts and the CLI do.
public struct RenderNode: Hashable, Sendable {
  /// The view kind (`"label"`, `"button"`, …).
  public var kind: String
  /// The view id.
  public var id: String?
  /// The properties, in order.
  public var properties: [RenderProperty]
  /// The children, in order.
  public var children: [RenderNode]

  /// Creates a node.
  public init(kind: String, id: String?, properties: [RenderProperty], children: [RenderNode]) {
    self.kind = kind
    self.id = id
    self.properties = properties
    self.children = children
  }

  /// The value of the property `name`, or `nil`.
  public subscript(property name: String) -> RenderValue? {
    properties.first { $0.name == name }?.value
  }

  /// The first node with `id` in this subtree, or `nil`.
  public func node(withID id: String) -> RenderNode? {
    if self.id == id { return self }
    for child in children {
      if let match = child.node(withID: id) { return match }
    }
    return nil
  }

  // MARK: - Text form

  /// The text form: `kind#id name=value …`, children indented by two spaces, one node a line.
  public var text: String {
    var lines: [String] = []
    appendLines(to: &lines, depth: 0)
    return lines.joined(separator: "\n")
  }

  private func appendLines(to lines: inout [String], depth: Int) {
    var line = String(repeating: "  ", count: depth) + kind
    if let id { line += "#" + id }
    for property in properties {
      line += " \(property.name)=\(property.value.jsonText)"
    }
    lines.append(line)
    for child in children {
      child.appendLines(to: &lines, depth: depth + 1)
    }
  }

  // MARK: - JSON form

  /// The JSON form: `{"kind":…,"id":…,<properties>…,"children":[…]}`, keys in that order.
  ///
  /// - Parameter pretty: indent with two spaces, one member a line.
  public func json(pretty: Bool = false) -> String {
    var out = ""
    writeJSON(to: &out, pretty: pretty, depth: 0)
    return out
  }

  /// Compact JSON (see ``json(pretty:)``).
  public var json: String { json(pretty: false) }

  private func writeJSON(to out: inout String, pretty: Bool, depth: Int) {
    let indent = pretty ? String(repeating: "  ", count: depth + 1) : ""
    let newline = pretty ? "\n" : ""
    let colon = pretty ? ": " : ":"
    var members = ["\"kind\"\(colon)\(jsonQuoted(kind))", "\"id\"\(colon)\(id.map(jsonQuoted) ?? "null")"]
    members += properties.map { "\(jsonQuoted($0.name))\(colon)\($0.value.jsonText)" }
    out += "{" + newline
    for member in members {
      out += indent + member + "," + newline
    }
    out += indent + "\"children\"\(colon)["
    if !children.isEmpty {
      out += newline
      for (offset, child) in children.enumerated() {
        out += indent + (pretty ? "  " : "")
        child.writeJSON(to: &out, pretty: pretty, depth: depth + 2)
        out += (offset < children.count - 1 ? "," : "") + newline
      }
      out += indent
    }
    out += "]" + newline + (pretty ? String(repeating: "  ", count: depth) : "") + "}"
  }
}
