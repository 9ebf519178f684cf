import CLua
import CLuaShim
import SendingState
import SendingStateHeadless

/// What the script roles of one runtime share: the engine's kernel (the same one that runs
/// whole screens), the Swift view trees their scripts work on, and the events they declare.
///
/// A role's script works on views Swift built: the bridge takes a tree in once (its views get
/// `view.<id>` names and typed properties in Lua), then each configure, event or handled
/// action is one call into the kernel, with writes checked at the script's line and applied
/// only if the script returns.
///
/// ```swift
/// let bridge = try LuaViewBridge(runtime: LuaRuntime())
/// let script = try LuaConfigurer<Product>(path: "card.lua", bridge: bridge, coding: .plan)
/// ```
@MainActor
public final class LuaViewBridge: KernelHost {
  /// The runtime the bridge serves.
  public let runtime: LuaRuntime
  private(set) var kernel: ScreenKernel!
  /// A tree taken in. NB: views are held weakly: Swift owns them, the bridge only names them.
  private struct Tree {
    weak var root: View?
    let rootVid: Int
    var views: [Int: WeakView]
    var interactive: [(vid: Int, view: WeakView, property: ViewProperty, last: LuaValue)]

    var strongViews: [Int: View] { views.compactMapValues(\.view) }
  }
  private var trees: [ObjectIdentifier: Tree] = [:]
  private var events = EngineEventTable()

  /// Creates the bridge for `runtime` (it loads the kernel into it).
  public init(runtime: LuaRuntime) throws {
    self.runtime = runtime
    kernel = try ScreenKernel(runtime: runtime, host: self)
  }

  /// Runs the script at `path`, which must return a function (the role scripts' shape).
  ///
  /// - Parameter shape: the expected signature, for the error (`"function(view, model)"`).
  func loadFunction(_ path: String, shape: String) throws -> LuaRef {
    let results = try runtime.callReturningReferences(try runtime.loadFile(path), with: [], context: "loading \(path)")
    guard let function = results.first, function.typeName == "function" else {
      throw ScriptError(
        kind: .runtime, message: "the script must return \(shape) (got \(results.first?.typeName ?? "nothing"))", chunk: path)
    }
    return function
  }

  // MARK: - Trees

  /// The kernel's id for the tree at `root`, taking it in on first use.
  private func tree(for root: View, owner: String) throws -> Tree {
    if let existing = trees[ObjectIdentifier(root)], existing.root === root { return existing }
    for (key, tree) in trees where tree.root == nil {
      trees[key] = nil
      _ = kernel.read("forget") { stack in
        stack.push(Int64(tree.rootVid))
        return 1
      }
    }
    var entries: [LuaValue] = []
    var order: [View] = []
    func walk(_ view: View, parent: Int) {
      order.append(view)
      let position = order.count
      let description = ViewRegistry.description(of: view)
      var values: [String: LuaValue] = [:]
      for property in description.properties where property.name != "id" && property.name != "kind" {
        let value = property.get(view)
        if value != .nil { values[property.name] = value }
      }
      entries += [
        .string(description.name), view.id.map(LuaValue.string) ?? .boolean(false), .integer(Int64(parent)),
        .table(LuaTable(fields: values)),
      ]
      for child in view.subviews { walk(child, parent: position) }
    }
    walk(root, parent: 0)
    let vids = try runtime.call(kernel.function("adopt"), context: "taking in \(owner)", pushArguments: {
      stack throws(LuaBridgeError) in
      try stack.push(.table(LuaTable(sequence: entries)), path: LuaPath(root: "views"))
      stack.push(owner)
      return 2
    }) { stack, _ throws(LuaBridgeError) in try stack.value(at: -1, path: LuaPath(root: "vids")) }
    var views: [Int: WeakView] = [:]
    var interactive: [(Int, WeakView, ViewProperty, LuaValue)] = []
    var rootVid = 0
    for (offset, vid) in (vids.tableValue?.sequence ?? []).enumerated() {
      guard let number = vid.intValue, offset < order.count else { continue }
      let view = order[offset]
      if view === root { rootVid = number }
      views[number] = WeakView(view: view)
      for property in ViewRegistry.description(of: view).properties where property.interactive {
        interactive.append((number, WeakView(view: view), property, property.get(view)))
      }
    }
    let tree = Tree(root: root, rootVid: rootVid, views: views, interactive: interactive)
    trees[ObjectIdentifier(root)] = tree
    return tree
  }

  /// A `view.<id>` table for every view with an id under `root` (the root itself included).
  public func viewsTable(for root: View, owner: String) throws -> LuaRef {
    let tree = try tree(for: root, owner: owner)
    return try runtime.call(kernel.function("viewsOf"), context: nil, pushArguments: { stack in
      stack.push(Int64(tree.rootVid))
      return 1
    }) { [runtime] stack, _ throws(LuaBridgeError) in
      lua_pushvalue(stack.L, -1)
      return LuaRef(runtime: runtime, reference: stack.ref())
    }
  }

  /// The values users changed in the tree since the last call (switches, text, sliders).
  private func sync(_ root: View) throws(LuaBridgeError) -> LuaValue {
    guard var tree = trees[ObjectIdentifier(root)] else { return .table(LuaTable()) }
    var changes: [LuaValue] = []
    for (position, entry) in tree.interactive.enumerated() {
      guard let view = entry.view.view else { continue }
      let current = entry.property.get(view)
      if current != entry.last {
        changes += [.integer(Int64(entry.vid)), .string(entry.property.name), current]
        tree.interactive[position].last = current
      }
    }
    trees[ObjectIdentifier(root)] = tree
    return .table(LuaTable(sequence: changes))
  }

  // MARK: - Role stages

  /// Runs `function(view, model)` on the tree at `root` with the model `pushModel` pushes;
  /// applies its writes if it returns.
  func configure(
    _ root: View, function: LuaRef, label: String, pushModel: (LuaStack) throws(LuaBridgeError) -> Void
  ) throws {
    let tree = try tree(for: root, owner: "\(type(of: root))")
    let changes = try sync(root)
    let batch = try kernel.run("roleConfigure", context: label) { stack throws(LuaBridgeError) in
      try stack.push(changes, path: LuaPath(root: "sync"))
      stack.push(Int64(tree.rootVid))
      stack.push(reference: function.reference)
      try pushModel(stack)
      stack.push(label)
      return 5
    }
    ScreenKernel.apply(batch.writes, to: tree.strongViews)
    remember(batch.writes, in: root)
  }

  /// What Lua wrote to interactive properties is what Lua knows; the next sync says otherwise.
  private func remember(_ writes: [EngineBatch.Write], in root: View) {
    guard var tree = trees[ObjectIdentifier(root)] else { return }
    for write in writes {
      if let position = tree.interactive.firstIndex(where: { $0.vid == write.vid && $0.property.name == write.property }) {
        tree.interactive[position].last = write.value
      }
    }
    trees[ObjectIdentifier(root)] = tree
  }

  /// One registration a script declared: the sender, its event and the kernel's keys.
  struct Registration {
    let sender: View
    let event: SenderEvent
    let vid: Int
    let key: Int
  }

  /// Runs `function(view, on)` on the tree at `root`; returns what it registered.
  func declare(_ root: View, function: LuaRef) throws -> [Registration] {
    let tree = try tree(for: root, owner: "\(type(of: root))")
    let batch = try kernel.run("roleDeclare", context: "events") { stack in
      stack.push(Int64(tree.rootVid))
      stack.push(reference: function.reference)
      return 2
    }
    return batch.registrations.compactMap { registration in
      guard let sender = tree.views[registration.sender]?.view, let event = events.event(registration.key) else { return nil }
      return Registration(sender: sender, event: event, vid: registration.sender, key: registration.key)
    }
  }

  /// Runs the callbacks of `registration` with the state `pushState` pushes; returns their actions.
  func event(
    _ root: View, registration: Registration, phase: String?, pushState: (LuaStack) throws(LuaBridgeError) -> Void
  ) throws -> [LuaValue] {
    let tree = try tree(for: root, owner: "\(type(of: root))")
    let changes = try sync(root)
    let batch = try kernel.run("roleEvent", context: nil) { stack throws(LuaBridgeError) in
      try stack.push(changes, path: LuaPath(root: "sync"))
      stack.push(Int64(tree.rootVid))
      stack.push(Int64(registration.vid))
      stack.push(Int64(registration.key))
      try pushState(stack)
      if let phase { stack.push(phase) } else { stack.pushNil() }
      return 6
    }
    return batch.actions
  }

  /// Runs `function(action, store)` for `action` and every action it dispatches, on `state`;
  /// `validate` checks each new state where the script makes it (its error names that line).
  /// Returns whether the state changed.
  func handle(function: LuaRef, action: LuaValue, state: LuaValue, validate: @escaping (LuaValue) throws -> Void) throws
    -> Bool
  {
    let validator = runtime.makeFunction("validate") { call in
      try validate(try call.value(1))
      return 0
    }
    let type = action["type"].stringValue.map { " (action '\($0)')" } ?? ""
    let batch = try kernel.run("roleHandle", context: "handle\(type)") { stack throws(LuaBridgeError) in
      stack.push(reference: function.reference)
      try stack.push(action, path: LuaPath(root: "action"))
      try stack.push(state, path: LuaPath(root: "state"))
      stack.push(reference: validator.reference)
      return 4
    }
    return batch.state != nil
  }

  // MARK: - KernelHost

  func parseEvent(_ spec: LuaValue, senderID: String?, kind: ViewKindDescription) -> Result<(key: Int, name: String), ScriptError> {
    events.key(for: spec, senderID: senderID, kind: kind)
  }

  func payloadSections() -> LuaValue? { nil }
  func hasSwiftUnit(_ unitType: String) -> Bool { false }
  func knownUnits(luaUnits: [String]) -> String { luaUnits.sorted().joined(separator: ", ") }
  func hasTask(_ name: String) -> Bool { false }
  func taskNames() -> String { "" }
}
