import SendingState
import SendingStateHeadless

/// The Lua-facing properties of every headless view kind: the one registry that installs the
/// bindings (and that the stubs are generated from).
///
/// Each property has a Lua type name for messages and stubs. Writes go through the screen's
/// write gate: allowed while `layout` builds the tree, buffered while `configure` runs, and an
/// error anywhere else (state flows in through `configure` only).
@MainActor
enum ScreenViewTypes {
  /// A property's name, Lua type and doc line.
  struct Property: Sendable {
    let name: String
    let luaType: String
    let doc: String
    let writable: Bool
  }

  /// Kind → its properties, in a stable order (shared ones first).
  static let shared: [Property] = [
    Property(name: "id", luaType: "string?", doc: "The view's id.", writable: false),
    Property(name: "kind", luaType: "string", doc: "The view's kind.", writable: false),
    Property(name: "hidden", luaType: "boolean", doc: "Whether the view is hidden.", writable: true),
    Property(name: "alpha", luaType: "number", doc: "Opacity from 0 to 1.", writable: true),
    Property(name: "enabled", luaType: "boolean", doc: "Whether the view takes interaction.", writable: true),
  ]

  static let own: [String: [Property]] = [
    "view": [],
    "label": [Property(name: "text", luaType: "string", doc: "The text.", writable: true)],
    "image": [Property(name: "image", luaType: "string?", doc: "The image's name.", writable: true)],
    "button": [
      Property(name: "title", luaType: "string", doc: "The title.", writable: true),
      Property(name: "selected", luaType: "boolean", doc: "Whether the button is selected.", writable: true),
    ],
    "switch": [Property(name: "isOn", luaType: "boolean", doc: "Whether the switch is on.", writable: true)],
    "slider": [
      Property(name: "value", luaType: "number", doc: "The value, kept within min…max.", writable: true),
      Property(name: "min", luaType: "number", doc: "The lowest value.", writable: true),
      Property(name: "max", luaType: "number", doc: "The highest value.", writable: true),
    ],
    "stepper": [
      Property(name: "value", luaType: "number", doc: "The value, kept within min…max.", writable: true),
      Property(name: "min", luaType: "number", doc: "The lowest value.", writable: true),
      Property(name: "max", luaType: "number", doc: "The highest value.", writable: true),
      Property(name: "step", luaType: "number", doc: "The amount one step moves the value.", writable: true),
    ],
    "segmented": [
      Property(name: "segments", luaType: "string[]", doc: "The segment titles.", writable: true),
      Property(name: "selectedIndex", luaType: "integer", doc: "The selected segment, 1-based (0: none).", writable: true),
    ],
    "textfield": [
      Property(name: "text", luaType: "string", doc: "The text.", writable: true),
      Property(name: "placeholder", luaType: "string", doc: "The hint shown when empty.", writable: true),
    ],
    "stack": [
      Property(name: "axis", luaType: "\"vertical\"|\"horizontal\"", doc: "The layout axis.", writable: true),
      Property(name: "spacing", luaType: "number", doc: "The gap between children.", writable: true),
    ],
    "sections": [],
    "unit": [],
    "list": [
      Property(name: "rows", luaType: "table[]", doc: "The items; each visible row is configured with its item.", writable: true),
      Property(name: "visibleRows", luaType: "integer", doc: "How many rows are visible at once.", writable: true),
    ],
  ]

  /// Every kind, in the order `ui.<kind>` builders are documented.
  static let kinds = [
    "view", "label", "image", "button", "switch", "slider", "stepper", "segmented", "textfield", "stack", "list",
    "sections",
  ]

  /// Kinds that exist as views but have no `ui.<kind>` builder.
  static let hostKinds = ["unit"]

  /// The properties of `kind`, shared ones first.
  static func properties(of kind: String) -> [Property] {
    shared + (own[kind] ?? [])
  }

  /// Makes a view of `kind`.
  static func make(_ kind: String) -> View? {
    switch kind {
    case "view": View()
    case "label": Label()
    case "image": ImageView()
    case "button": Button()
    case "switch": Switch()
    case "slider": Slider()
    case "stepper": Stepper()
    case "segmented": SegmentedControl()
    case "textfield": TextField()
    case "stack": StackView()
    case "list": ListView(visibleRowLimit: 10)
    default: nil
    }
  }
}
