/// A description of everything the host installs for scripts: view kinds and their properties,
/// the store's methods, the screen contract and the version.
///
/// It is read from the same tables that install the bindings, so tools (the LuaLS stub
/// generator) cannot drift from them:
///
/// ```swift
/// for kind in LuaHostAPI.viewKinds { print(kind.name, kind.properties.map(\.name)) }
/// ```
package enum LuaHostAPI {
  /// One property of a view kind.
  package struct Property: Sendable {
    /// The name scripts use.
    package let name: String
    /// Its LuaLS type.
    package let luaType: String
    /// One line of documentation.
    package let doc: String
    /// Whether scripts may set it (in layout and configure).
    package let writable: Bool
  }

  /// A view kind with its properties.
  package struct ViewKind: Sendable {
    /// `label`, `button`, …
    package let name: String
    /// Its properties, shared ones first.
    package let properties: [Property]
    /// Whether `ui.<name>{…}` builds it.
    package let hasBuilder: Bool
  }

  /// One method or field of an API table.
  package struct Member: Sendable {
    /// The name.
    package let name: String
    /// The LuaLS signature (`fun(self, fn: fun(state: table): table?)`).
    package let signature: String
    /// One line of documentation.
    package let doc: String

    /// Creates a member.
    package init(name: String, signature: String, doc: String) {
      self.name = name
      self.signature = signature
      self.doc = doc
    }
  }

  /// Every view kind, in builder order.
  @MainActor
  package static var viewKinds: [ViewKind] {
    ViewRegistry.kinds.filter { $0.name != "screen" && $0.name != "row" }.map { kind in
      ViewKind(
        name: kind.name,
        properties: kind.properties.map {
          Property(name: $0.name, luaType: $0.luaType, doc: $0.doc, writable: $0.writable)
        },
        hasBuilder: kind.builder)
    }
  }

  /// The extra keys `ui.list{…}` takes.
  package static let listBuilderFunctions: [Member] = [
    Member(name: "row", signature: "fun(ui: SSUI): SSView", doc: "Builds one row (called once per created row; rows are reused)."),
    Member(name: "configure", signature: "fun(row: table<string, SSView>, item: any)", doc: "Configures a row with its item."),
    Member(name: "events", signature: "fun(row: table<string, SSView>, on: SSOn)", doc: "Declares the row's events; callbacks get the item."),
  ]

  /// The methods of the `store` handed to `handle`.
  package static let storeMethods: [Member] = [
    Member(name: "update", signature: "fun(self: SSStore, fn: fun(state: table): table?)", doc: "Changes a copy of the state; the result is validated, then committed."),
    Member(name: "set", signature: "fun(self: SSStore, state: table)", doc: "Replaces the state (validated, then committed)."),
    Member(name: "dispatch", signature: "fun(self: SSStore, action: SSAction)", doc: "Queues an action, handled after the current one (FIFO)."),
    Member(
      name: "after", signature: "fun(self: SSStore, seconds: number, action: SSAction, options: SSEffectOptions?)",
      doc: "Dispatches an action after a delay (an effect)."),
    Member(
      name: "fetch", signature: "fun(self: SSStore, url: string, types: { ok: string, fail: string }, options: SSFetchOptions?)",
      doc: "An HTTP request (a GET unless options give a method, headers and a body); the result comes back as an action (an effect)."),
    Member(
      name: "run", signature: "fun(self: SSStore, task: string, input: any, types: { ok: string, fail: string }, options: SSEffectOptions?)",
      doc: "Starts async work the host app registered by name; its value comes back as the ok action's value, a failure as fail's error."),
    Member(
      name: "cancel", signature: "fun(self: SSStore, id: string)",
      doc: "Cancels the effects started with this id (pending debounced and throttled ones too); their actions never arrive."),
  ]

  /// The fields of a screen table.
  package static let screenFields: [Member] = [
    Member(name: "name", signature: "string?", doc: "The screen's name."),
    Member(name: "state", signature: "table", doc: "The initial state (required)."),
    Member(name: "schema", signature: "table?", doc: "Field types every new state must fit."),
    Member(name: "units", signature: "table<string, SSUnit>?", doc: "Renderers of server-driven unit types."),
    Member(name: "layout", signature: "fun(ui: SSUI): SSView", doc: "Builds the view tree once (required)."),
    Member(
      name: "configure", signature: "fun(view: table<string, SSView>, state: table, old: table?)",
      doc: "Applies the state to the views (required); old is the state shown before (nil the first time)."),
    Member(name: "events", signature: "(fun(view: table<string, SSView>, on: SSOn))?", doc: "Declares sender → event → actions."),
    Member(name: "handle", signature: "(fun(action: SSAction, store: SSStore))?", doc: "Changes state through the store."),
    Member(
      name: "reduce", signature: "(fun(state: table, action: SSAction): table?, SSEffect[]?)?",
      doc: "Instead of handle: a pure function from the state and an action to the next state (nil: unchanged) and effects."),
    Member(
      name: "states", signature: "table<string, SSNamedState>?",
      doc: "Named states: per name { set, update, done = fun(view, state), transition = seconds }; state_name picks one per commit."),
    Member(
      name: "state_name", signature: "(fun(state: table): string)?",
      doc: "With states: the name of the state's named state (e.g. return state.phase)."),
    Member(
      name: "state_transition", signature: "number?",
      doc: "With states: the transition (seconds) of the states that declare none; 0 (the default) is at once."),
    Member(
      name: "capabilities", signature: "table?",
      doc: "What the screen needs beyond computing: { \"timers\", \"clock\", net = { \"api.example.com\" } }."),
    Member(name: "components", signature: "table<string, table>?", doc: "The screen's own ui.<name> components."),
  ]

  /// The version scripts see as `require("sendingstate").version`.
  package static var version: String { LuaScreen.apiVersion }
}
