import CLua
import CLuaShim
import Foundation
import SendingState
import SendingStateHeadless

/// Building views: the `ui.<kind>` builders and server-driven units.
extension LuaScreen {
  // MARK: - Views

  func buildView(kind: String, call: LuaCall) throws -> Int {
    guard call.typeName(1) == "table" else {
      throw ScriptError(kind: .typeMismatch, message: "ui.\(kind) takes a table ({ id = …, properties…, children… }), got \(call.typeName(1))")
    }
    guard let view = kind == "sections" ? SectionsView() : ScreenViewTypes.make(kind) else {
      throw ScriptError(kind: .runtime, message: "unknown view kind '\(kind)'")
    }
    let L = call.stack.L
    var children: [Int64: View] = [:]
    var listFunctions: [String: LuaRef] = [:]
    var deferred: [(String, LuaRef)] = []
    lua_pushnil(L)
    while lua_next(L, 1) != 0 {
      defer { sslua_pop(L, 1) }
      let valueIndex = lua_gettop(L)
      if lua_type(L, -2) == LUA_TNUMBER {
        let position = lua_tointegerx(L, -2, nil)
        guard let child = bridge.view(atStackIndex: valueIndex) else {
          throw ScriptError(
            kind: .typeMismatch, message: "ui.\(kind): child #\(position) must be a view built with ui.<kind>{…}, got \(call.typeName(Int(valueIndex)))")
        }
        children[position] = child
        continue
      }
      guard let key = call.stack.string(at: -2) else {
        throw ScriptError(kind: .typeMismatch, message: "ui.\(kind): keys are property names or child positions")
      }
      if key == "id" {
        guard let id = call.stack.string(at: valueIndex) else {
          throw ScriptError(kind: .typeMismatch, message: "ui.\(kind).id: expected string, got \(call.typeName(Int(valueIndex)))")
        }
        view.id = id
      } else if kind == "list", ["row", "configure", "events"].contains(key) {
        guard lua_type(L, valueIndex) == LUA_TFUNCTION else {
          throw ScriptError(kind: .typeMismatch, message: "ui.list.\(key): expected function, got \(call.typeName(Int(valueIndex)))")
        }
        listFunctions[key] = call.reference(Int(valueIndex))
      } else if ["value", "selectedIndex"].contains(key) {
        // Applied after the bounds (min, max, segments), whatever the table's order.
        deferred.append((key, call.reference(Int(valueIndex))))
      } else {
        try bridge.set(key, of: view, from: LuaValueReader(stack: call.stack, index: valueIndex, path: LuaPath(root: "ui.\(kind).\(key)")))
      }
    }
    for (key, value) in deferred {
      call.stack.push(reference: value.reference)
      defer { call.stack.pop() }
      try bridge.set(key, of: view, from: LuaValueReader(stack: call.stack, index: call.stack.top, path: LuaPath(root: "ui.\(kind).\(key)")))
    }
    for position in children.keys.sorted() {
      view.addSubview(children[position]!)
    }
    if let sections = view as? SectionsView {
      try renderSections(into: sections)
    }
    if let list = view as? ListView {
      guard let rowBuilder = listFunctions["row"] else {
        throw ScriptError(kind: .runtime, message: "ui.list needs row = function(ui) … end (it builds one row)")
      }
      let binding = LuaListBinding(
        list: list, rowBuilder: rowBuilder, rowConfigure: listFunctions["configure"], rowEvents: listFunctions["events"])
      binding.screen = self
      bindings[ObjectIdentifier(list)] = binding
      list.dataSource = binding
      list.register(forReuseIdentifier: "row") { [unowned self, unowned binding] in
        self.makeRow(for: binding)
      }
    }
    bridge.keepUntilAttached(view)
    call.push(reference(for: view))
    return 1
  }

  func reference(for view: View) -> LuaRef { bridge.reference(for: view) }

  func view(for reference: LuaRef) -> View? { bridge.view(for: reference) }

  // MARK: - Server-driven units

  /// Fills `ui.sections` with the payload: one stack per section, one host per unit.
  func renderSections(into container: SectionsView) throws {
    container.axis = .vertical
    var counters: [String: Int] = [:]
    for (sectionIndex, section) in (options.data?.sections ?? []).enumerated() {
      let stack = StackView(id: section.sectionId ?? "section\(sectionIndex + 1)", axis: .vertical)
      container.addSubview(stack)
      for (unitIndex, unit) in section.serverUnits.enumerated() {
        counters[unit.unitType, default: 0] += 1
        let id = unit.data["id"].stringValue ?? "\(unit.unitType)\(counters[unit.unitType]!)"
        let host = LuaUnitHost(unit: unit, id: id)
        host.screen = self
        let where_ = "section \(sectionIndex + 1), unit \(unitIndex + 1)"
        if let module = unitModules[unit.unitType] {
          try buildUnit(host, module: module)
        } else if let render = options.swiftUnits[unit.unitType] {
          host.addSubview(render(unit))
        } else {
          let known = (Array(unitModules.keys) + Array(options.swiftUnits.keys)).sorted().joined(separator: ", ")
          host.addSubview(Label(id: "placeholder", text: "unsupported unit '\(unit.unitType)'"))
          warnings.append("payload \(where_): unknown unit type '\(unit.unitType)' (known: \(known)); rendered a placeholder")
        }
        stack.addSubview(host)
        unitHosts.append(host)
        host.ss.configure(unit.data)
        host.ss.addActionHandler(to: handler)
      }
    }
  }

  func buildUnit(_ host: LuaUnitHost, module: LuaRef) throws {
    guard let layout = module.field("layout") else { return }
    let label = "unit '\(host.id ?? "")' (\(host.unit.unitType))"
    (host.viewsByID, host.views) = try buildContent(
      into: host, builder: layout, events: module.field("events"), label: label
    ) { [unowned host] registration in host.registrations.append(registration) }
    host.configure = module.field("configure")?.unretainingRuntime()
  }

  /// Builds the content of a row or a unit: runs its builder, attaches the view, collects its
  /// ids, makes its `view` table and runs its `events`.
  ///
  /// NB: rows and units are kept alive through their list's or sections' userdata, so the views
  /// table does not retain the runtime.
  func buildContent(
    into host: View, builder: LuaRef, events: LuaRef?, label: String,
    register: @escaping (LuaEventRegistration) -> Void
  ) throws -> ([String: View], LuaRef) {
    let built = try gate.direct { try runtime.callReturningReferences(builder, with: [uiTable], context: label + " layout") }
    guard let ref = built.first, let content = view(for: ref) else {
      throw ScriptError(kind: .runtime, message: "\(label): layout must return a view built with ui.<kind>{…}")
    }
    host.addSubview(content)
    bridge.attached(content)
    let viewsByID = try bridge.collectIDs(in: content, owner: label, chunk: path)
    let views = try bridge.viewsTable(viewsByID, owner: label).unretainingRuntime()
    if let events {
      try gate.closed("views are read-only in events (declare mappings with on(); views change in configure)") {
        _ = try runtime.callReturningReferences(events, with: [views, makeOnFunction(register)], context: label + " events")
      }
    }
    return (viewsByID, views)
  }
}
