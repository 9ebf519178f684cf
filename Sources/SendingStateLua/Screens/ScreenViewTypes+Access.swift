import SendingState
import SendingStateHeadless

extension ScreenViewTypes {
  /// The current value of `property` of `view`, as Lua sees it.
  static func get(_ view: View, _ property: String) -> LuaValue {
    switch property {
    case "id": return view.id.map(LuaValue.string) ?? .nil
    case "kind": return .string(view.kind)
    case "hidden": return .boolean(view.isHidden)
    case "alpha": return .number(view.alpha)
    case "enabled": return .boolean(view.isEnabled)
    default: break
    }
    switch (view, property) {
    case (let label as Label, "text"): return .string(label.text)
    case (let image as ImageView, "image"): return image.imageName.map(LuaValue.string) ?? .nil
    case (let button as Button, "title"): return .string(button.title)
    case (let button as Button, "selected"): return .boolean(button.isSelected)
    case (let toggle as Switch, "isOn"): return .boolean(toggle.isOn)
    case (let stepper as Stepper, "step"): return .number(stepper.stepValue)
    case (let slider as Slider, "value"): return .number(slider.value)
    case (let slider as Slider, "min"): return .number(slider.minimumValue)
    case (let slider as Slider, "max"): return .number(slider.maximumValue)
    case (let segments as SegmentedControl, "segments"): return .table(LuaTable(sequence: segments.segments.map(LuaValue.string)))
    case (let segments as SegmentedControl, "selectedIndex"): return .integer(Int64(segments.selectedIndex + 1))
    case (let field as TextField, "text"): return .string(field.text)
    case (let field as TextField, "placeholder"): return .string(field.placeholder)
    case (let stack as StackView, "axis"): return .string(stack.axis.rawValue)
    case (let stack as StackView, "spacing"): return .number(stack.spacing)
    case (_ as ListView, "rows"):
      return .nil  // roles do not build lists
    case (let list as ListView, "visibleRows"): return .integer(Int64(list.visibleRowLimit))
    default: return .nil
    }
  }

  /// Checks `value` for `property` of `view` and returns the work that applies it.
  ///
  /// - Throws: a type mismatch naming `kind.property`.
  static func setter(_ view: View, _ property: String, _ value: LuaValue) throws -> @MainActor () -> Void {
    func mismatch(_ expected: String) -> ScriptError {
      ScriptError(kind: .typeMismatch, message: "\(view.kind).\(property): expected \(expected), got \(describe(value))")
    }
    func string() throws -> String {
      guard let text = value.stringValue else { throw mismatch("string") }
      return text
    }
    func number() throws -> Double {
      guard let number = value.doubleValue, !number.isNaN else { throw mismatch("number") }
      return number
    }
    func flag() throws -> Bool {
      guard let flag = value.boolValue else { throw mismatch("boolean") }
      return flag
    }
    func integer() throws -> Int {
      guard let integer = value.intValue else { throw mismatch("integer") }
      return integer
    }
    switch property {
    case "hidden":
      let hidden = try flag()
      return { view.isHidden = hidden }
    case "alpha":
      let alpha = try number()
      return { view.alpha = min(max(alpha, 0), 1) }
    case "enabled":
      let enabled = try flag()
      return { view.isEnabled = enabled }
    default: break
    }
    switch (view, property) {
    case (let label as Label, "text"):
      let text = try string()
      return { label.text = text }
    case (let image as ImageView, "image"):
      let name = value == .nil ? nil : try string()
      return { image.imageName = name }
    case (let button as Button, "title"):
      let title = try string()
      return { button.title = title }
    case (let button as Button, "selected"):
      let selected = try flag()
      return { button.isSelected = selected }
    case (let toggle as Switch, "isOn"):
      let on = try flag()
      return { toggle.isOn = on }
    case (let stepper as Stepper, "step"):
      let step = try number()
      return { stepper.stepValue = step }
    case (let slider as Slider, "value"):
      let number = try number()
      return { slider.value = number }
    case (let slider as Slider, "min"):
      let number = try number()
      return { slider.minimumValue = number }
    case (let slider as Slider, "max"):
      let number = try number()
      return { slider.maximumValue = number }
    case (let segments as SegmentedControl, "segments"):
      guard case .table(let table) = value, table.fields.isEmpty else { throw mismatch("a list of strings") }
      let titles = try table.sequence.map { item in
        guard let title = item.stringValue else { throw mismatch("a list of strings") }
        return title
      }
      return { segments.segments = titles }
    case (let segments as SegmentedControl, "selectedIndex"):
      let index = try integer()
      return { segments.selectedIndex = index - 1 }
    case (let field as TextField, "text"):
      let text = try string()
      return { field.text = text }
    case (let field as TextField, "placeholder"):
      let text = try string()
      return { field.placeholder = text }
    case (let stack as StackView, "axis"):
      guard let axis = StackView.Axis(rawValue: try string()) else { throw mismatch("\"vertical\" or \"horizontal\"") }
      return { stack.axis = axis }
    case (let stack as StackView, "spacing"):
      let spacing = try number()
      return { stack.spacing = spacing }
    case (_ as ListView, "rows"):
      throw ScriptError(kind: .runtime, message: "list.rows can be set in screens only")
    case (let list as ListView, "visibleRows"):
      let count = try integer()
      guard count >= 1 else { throw mismatch("a positive integer") }
      return {
        list.visibleRowLimit = count
        list.reloadData()
      }
    default:
      let names = properties(of: view.kind).map(\.name).sorted().joined(separator: ", ")
      throw ScriptError(kind: .runtime, message: "\(view.kind) has no property '\(property)' (properties: \(names))")
    }
  }

  /// A Lua object type for `kind` whose properties go through the bridge's write gate.
  ///
  /// The userdata holds a ``ViewHandle`` (a weak reference): Swift owns views, Lua refers to
  /// them. Touching a view that was released is an error.
  static func objectType(for kind: String) -> LuaObjectType<ViewHandle> {
    let type = LuaObjectType<ViewHandle>(kind)
    for property in properties(of: kind) {
      let name = property.name
      var write: LuaObjectType<ViewHandle>.Setter?
      if property.writable {
        write = { handle, reader in
          let value = try reader.value()
          let bridge = reader.runtime?.owner as? LuaViewBridge
          try MainActor.assumeIsolated {
            let view = try handle.resolve()
            let apply = try setter(view, name, value)
            guard let bridge else { throw ScriptError(kind: .runtime, message: "views can only be written through a view bridge") }
            try bridge.gate.write(view, name, value, apply: apply)
          }
        }
      }
      type.property(
        name,
        get: { handle, out in
          let bridge = out.runtime?.owner as? LuaViewBridge
          let value = try MainActor.assumeIsolated {
            let view = try handle.resolve()
            return bridge?.gate.pending(view, name) ?? get(view, name)
          }
          try out.push(value)
        }, set: write)
    }
    return type
  }
}

/// What a view userdata holds: a weak reference to the view (Swift owns views).
final class ViewHandle: @unchecked Sendable {
  weak var view: View?
  let kind: String

  @MainActor
  init(_ view: View) {
    self.view = view
    self.kind = view.kind
  }

  /// The view, or an error when it has been released.
  @MainActor
  func resolve() throws -> View {
    guard let view else {
      throw ScriptError(kind: .runtime, message: "this \(kind) no longer exists (its view was released)")
    }
    return view
  }
}
