import SendingState
import SendingStateHeadless

/// One property of a view kind as scripts see it.
///
/// The one description that feeds everything: the `ui.<kind>` builders and view access in Lua
/// (through the kernel's checks), the host's driver, the render tree of a Lua screen (see
/// ``ViewRegistry/renderTree(of:)``), and the LuaLS stubs. Lua's conventions (1-based indices,
/// whole numbers as integers) live here and nowhere below: the headless views know nothing of
/// them.
struct ViewProperty: Sendable {
  /// How the kernel checks a value before it accepts a write.
  enum Check: String, Sendable {
    case string, optionalString, boolean, number, alpha, integer, positive, strings, axis, rows
  }

  /// When the property appears in the render tree (as `get` reads it, unless ``render`` says
  /// otherwise).
  enum Shown: Sendable {
    /// Always.
    case always
    /// Only when its value differs from this one (`hidden` only when true, say).
    case unless(LuaValue)
    /// Never (the node's own fields, and what scripts write but the screen does not show).
    case never
  }

  /// The name scripts use.
  let name: String
  /// The LuaLS type, for the stubs.
  let luaType: String
  /// One line of documentation.
  let doc: String
  /// The kernel's check.
  let check: Check
  /// Whether scripts may set it (in layout and configure).
  let writable: Bool
  /// Whether users change it (a switch flipped, text typed): the host copies it into Lua
  /// before each event, so callbacks and configure read what the user did.
  let interactive: Bool
  /// The current value, as Lua sees it.
  let get: @MainActor @Sendable (View) -> LuaValue
  /// Applies a value the kernel checked (never fails).
  let set: (@MainActor @Sendable (View, LuaValue) -> Void)?
  /// Whether a builder sets it after the others (a value after its bounds, a selection after
  /// the segments), whatever order the script's table gives.
  let deferred: Bool
  /// When it appears in the render tree.
  let shown: Shown
  /// What the render tree shows instead of `get`'s value (a list's row count), if anything.
  let render: (@MainActor @Sendable (View) -> RenderValue)?

  init(
    _ name: String, _ luaType: String, _ doc: String, check: Check, interactive: Bool = false, deferred: Bool = false,
    shown: Shown = .always, render: (@MainActor @Sendable (View) -> RenderValue)? = nil,
    get: @escaping @MainActor @Sendable (View) -> LuaValue, set: (@MainActor @Sendable (View, LuaValue) -> Void)? = nil
  ) {
    self.name = name
    self.luaType = luaType
    self.doc = doc
    self.check = check
    self.writable = set != nil
    self.interactive = interactive
    self.deferred = deferred
    self.shown = shown
    self.render = render
    self.get = get
    self.set = set
  }

  /// The property as the render tree shows it on `view`, or nil when it does not show.
  @MainActor
  func rendered(on view: View) -> RenderProperty? {
    let value = get(view)
    switch shown {
    case .never: return nil
    case .unless(let usual) where value == usual: return nil
    default: break
    }
    return RenderProperty(name, render?(view) ?? Self.renderValue(value))
  }

  /// A Lua value as the render tree spells it.
  static func renderValue(_ value: LuaValue) -> RenderValue {
    switch value {
    case .nil: .null
    case .boolean(let flag): .bool(flag)
    case .integer(let integer): .integer(Int(integer))
    case .number(let number): .number(number)
    case .string(let text), .opaque(let text): .string(text)
    case .table(let table): .strings(table.sequence.map { $0.stringValue ?? "" })
    }
  }
}

/// A view kind: how to make one, whether `ui.<kind>` builds it, and its properties.
struct ViewKindDescription: Sendable {
  let name: String
  let builder: Bool
  let isControl: Bool
  let make: @MainActor @Sendable () -> View
  /// Whether a view of this kind's name is of the class the properties are written for (a
  /// Swift unit's own view may call itself a "label" without being a ``Label``).
  let describes: @MainActor @Sendable (View) -> Bool
  /// The shared properties, then the kind's own.
  let properties: [ViewProperty]
  /// The render tree's properties in its order: the kind's own, those only the render tree
  /// shows (where a list is scrolled: scripts do not read them, so no copy of them in Lua can
  /// go stale), then the shared ones.
  let renderOrder: [ViewProperty]

  func property(_ name: String) -> ViewProperty? { properties.first { $0.name == name } }
}

/// Every view kind scripts can build or reach.
enum ViewRegistry {
  // Typed accessors: a property closure is written once per kind, cast once.
  @MainActor private static func typed<V: View>(_ view: View, _: V.Type) -> V { view as! V }

  private static func string(_ value: LuaValue) -> String { value.stringValue ?? "" }
  private static func number(_ value: LuaValue) -> Double { value.doubleValue ?? 0 }
  private static func flag(_ value: LuaValue) -> Bool { value.boolValue ?? false }
  private static func integer(_ value: LuaValue) -> Int { value.intValue ?? 0 }

  static let shared: [ViewProperty] = [
    ViewProperty(
      "id", "string?", "The view's id.", check: .optionalString, shown: .never, get: { $0.id.map(LuaValue.string) ?? .nil }),
    ViewProperty("kind", "string", "The view's kind.", check: .string, shown: .never, get: { .string($0.kind) }),
    ViewProperty(
      "hidden", "boolean", "Whether the view is hidden.", check: .boolean, shown: .unless(false), get: { .boolean($0.isHidden) },
      set: { $0.isHidden = flag($1) }),
    ViewProperty(
      "alpha", "number", "Opacity from 0 to 1.", check: .alpha, shown: .unless(.number(1)), get: { .number($0.alpha) },
      set: { $0.alpha = min(max(number($1), 0), 1) }),
    enabled(shown: .unless(true)),
  ]

  /// Whether a view takes interaction: the render tree shows it on controls always, on other
  /// views only when it is off.
  private static func enabled(shown: ViewProperty.Shown) -> ViewProperty {
    ViewProperty(
      "enabled", "boolean", "Whether the view takes interaction.", check: .boolean, shown: shown, get: { .boolean($0.isEnabled) },
      set: { $0.isEnabled = flag($1) })
  }

  private static func kind<V: View>(
    _ name: String, builder: Bool = true, control: Bool = false, make: @escaping @MainActor @Sendable () -> V,
    describes: (@MainActor @Sendable (View) -> Bool)? = nil, _ own: [ViewProperty] = [], shownOnly: [ViewProperty] = []
  ) -> ViewKindDescription {
    let common = control ? shared.dropLast() + [enabled(shown: .always)] : shared
    // Controls show `enabled` first (always), other views last (only when off).
    let tail = control ? [common[4], common[2], common[3]] : [common[2], common[3], common[4]]
    return ViewKindDescription(
      name: name, builder: builder, isControl: control, make: make, describes: describes ?? { $0 is V },
      properties: common + own, renderOrder: own + shownOnly + tail)
  }

  /// Every kind, builders first in the order they are documented.
  static let kinds: [ViewKindDescription] = [
    // A plain view only: a subclass that keeps the name "view" describes itself.
    kind("view", make: { View() }, describes: { type(of: $0) == View.self }),
    kind(
      "label", make: { Label() },
      [
        ViewProperty(
          "text", "string", "The text.", check: .string, get: { .string(typed($0, Label.self).text) },
          set: { typed($0, Label.self).text = string($1) })
      ]),
    kind(
      "image", make: { ImageView() },
      [
        ViewProperty(
          "image", "string?", "The image's name.", check: .optionalString,
          get: { typed($0, ImageView.self).imageName.map(LuaValue.string) ?? .nil },
          set: { typed($0, ImageView.self).imageName = $1.stringValue })
      ]),
    kind(
      "button", control: true, make: { Button() },
      [
        ViewProperty(
          "title", "string", "The title.", check: .string, get: { .string(typed($0, Button.self).title) },
          set: { typed($0, Button.self).title = string($1) }),
        ViewProperty(
          "selected", "boolean", "Whether the button is selected.", check: .boolean,
          get: { .boolean(typed($0, Button.self).isSelected) }, set: { typed($0, Button.self).isSelected = flag($1) }),
      ]),
    kind(
      "switch", control: true, make: { Switch() },
      [
        ViewProperty(
          "isOn", "boolean", "Whether the switch is on.", check: .boolean, interactive: true,
          get: { .boolean(typed($0, Switch.self).isOn) }, set: { typed($0, Switch.self).isOn = flag($1) })
      ]),
    kind("slider", control: true, make: { Slider() }, rangeProperties),
    kind(
      "stepper", control: true, make: { Stepper() },
      [stepperValue] + rangeProperties.dropFirst() + [
        ViewProperty(
          "step", "number", "The amount one step moves the value.", check: .number,
          get: { .number(typed($0, Stepper.self).stepValue) }, set: { typed($0, Stepper.self).stepValue = number($1) })
      ]),
    kind(
      "segmented", control: true, make: { SegmentedControl() },
      [
        ViewProperty(
          "segments", "string[]", "The segment titles.", check: .strings,
          get: { .table(LuaTable(sequence: typed($0, SegmentedControl.self).segments.map(LuaValue.string))) },
          set: { typed($0, SegmentedControl.self).segments = $1.tableValue?.sequence.compactMap(\.stringValue) ?? [] }),
        ViewProperty(
          "selectedIndex", "integer", "The selected segment, 1-based (0: none).", check: .integer, interactive: true,
          deferred: true,
          get: { .integer(Int64(typed($0, SegmentedControl.self).selectedIndex + 1)) },
          set: { typed($0, SegmentedControl.self).selectedIndex = integer($1) - 1 }),
      ]),
    kind(
      "textfield", control: true, make: { TextField() },
      [
        ViewProperty(
          "text", "string", "The text.", check: .string, interactive: true,
          get: { .string(typed($0, TextField.self).text) }, set: { typed($0, TextField.self).text = string($1) }),
        ViewProperty(
          "placeholder", "string", "The hint shown when empty.", check: .string,
          get: { .string(typed($0, TextField.self).placeholder) },
          set: { typed($0, TextField.self).placeholder = string($1) }),
        ViewProperty(
          "secure", "boolean", "Whether typing is hidden (a password field); pictures and the preview mask the text.",
          check: .boolean, shown: .unless(false),
          get: { .boolean(typed($0, TextField.self).isSecure) }, set: { typed($0, TextField.self).isSecure = flag($1) }),
      ]),
    kind("stack", make: { StackView() }, stackProperties),
    kind(
      "list", make: { ListView(visibleRowLimit: 10) },
      [
        // The engine keeps the items and plans the rows; the render tree shows their count.
        ViewProperty(
          "rows", "any[]", "The items; each visible row is configured with its item.", check: .rows,
          render: { .integer(typed($0, ListView.self).numberOfRows) }, get: { _ in .nil }, set: { _, _ in }),
        ViewProperty(
          "visibleRows", "integer", "How many rows are visible at once.", check: .positive, shown: .never,
          get: { .integer(Int64(typed($0, ListView.self).visibleRowLimit)) },
          set: { typed($0, ListView.self).visibleRowLimit = max(1, integer($1)) }),
      ],
      shownOnly: [
        ViewProperty(
          "first", "integer", "The first visible row, 1-based (the list scrolled to it).", check: .integer,
          get: { .integer(Int64(typed($0, ListView.self).firstVisibleIndex + 1)) }),
        ViewProperty(
          "visible", "integer", "How many rows are shown now (at most visibleRows).", check: .integer,
          get: { .integer(Int64(typed($0, ListView.self).visibleRange.count)) }),
      ]),
    kind("sections", make: { SectionsView() }),
    kind("screen", builder: false, make: { LuaScreenHost() }),
    kind(
      "row", builder: false, make: { LuaListRow() },
      shownOnly: [
        ViewProperty(
          "index", "integer?", "The item the row shows, 1-based (nil while it waits for reuse).", check: .integer,
          get: { (($0 as? ListRow)?.index).map { .integer(Int64($0 + 1)) } ?? .nil })
      ]),
    kind(
      "unit", builder: false, make: { View() },
      [ViewProperty("type", "string", "The unit's type.", check: .string, get: { .string((($0 as? LuaUnitHost)?.unit.unitType) ?? "") })]
    ),
  ]

  private static let rangeProperties: [ViewProperty] = [
    ViewProperty(
      "value", "number", "The value, kept within min…max.", check: .number, interactive: true, deferred: true,
      get: { .number(typed($0, Slider.self).value) }, set: { typed($0, Slider.self).value = number($1) }),
    ViewProperty(
      "min", "number", "The lowest value.", check: .number, get: { .number(typed($0, Slider.self).minimumValue) },
      set: { typed($0, Slider.self).minimumValue = number($1) }),
    ViewProperty(
      "max", "number", "The highest value.", check: .number, get: { .number(typed($0, Slider.self).maximumValue) },
      set: { typed($0, Slider.self).maximumValue = number($1) }),
  ]

  /// A stepper's value: a Lua integer when its min and step are whole numbers (so every value
  /// it can take is whole: `16`, not `16.0`), a float otherwise.
  private static let stepperValue = ViewProperty(
    "value", "number", "The value, kept within min…max; an integer when min and step are whole numbers.", check: .number,
    interactive: true, deferred: true,
    get: { view in
      let stepper = typed(view, Stepper.self)
      let whole = { (number: Double) in number.rounded() == number && abs(number) < 9.0e15 }
      if whole(stepper.minimumValue), whole(stepper.stepValue), whole(stepper.value) {
        return .integer(Int64(stepper.value))
      }
      return .number(stepper.value)
    },
    set: { typed($0, Slider.self).value = number($1) })

  private static let stackProperties: [ViewProperty] = [
    ViewProperty(
      "axis", "\"vertical\"|\"horizontal\"", "The layout axis.", check: .axis,
      get: { .string(typed($0, StackView.self).axis.rawValue) },
      set: { typed($0, StackView.self).axis = StackView.Axis(rawValue: string($1)) ?? .vertical }),
    ViewProperty(
      "spacing", "number", "The gap between children.", check: .number, get: { .number(typed($0, StackView.self).spacing) },
      set: { typed($0, StackView.self).spacing = number($1) }),
  ]

  /// Kinds by name.
  static let byName: [String: ViewKindDescription] = Dictionary(uniqueKeysWithValues: kinds.map { ($0.name, $0) })

  /// The description of `view`'s kind, if the registry has one for it: a kind of that name
  /// whose class the view is.
  @MainActor
  static func known(_ view: View) -> ViewKindDescription? {
    guard let kind = byName[view.kind], kind.describes(view) else { return nil }
    return kind
  }

  /// The description of `view`'s kind (a view of an unknown kind or class is described as
  /// `view`: only the shared properties, which every view has).
  @MainActor
  static func description(of view: View) -> ViewKindDescription {
    known(view) ?? byName["view"]!
  }
}
