import Foundation
import SendingState
import SendingStateLua
import SendingStatePlugins

/// `sendingstate stubs`: LuaLS `---@meta` definitions for the whole host API, and a `.luarc.json`.
///
/// Generated from ``LuaHostAPI`` (the registry that installs the bindings), so a binding
/// without a stub cannot slip in (a test checks both directions). What editors get:
/// - one class per view kind with its fields (`SSLabel.text`), and `SSAnyView` with every
///   kind's fields, which is what `view.<id>` and a callback's `sender` are (`view.count.text`,
///   `sender.isOn` type-check);
/// - one props class per `ui.<kind>{…}` builder (`SSLabelProps`: its writable properties and
///   children);
/// - the store, the screen contract, actions as `string|{ type: string }`, units;
/// - `require "sendingstate"` (the file returns the module: `version`, and `open` in specs) with
///   the screen driver, and luassert's `tree_matches` and `picture_matches`;
/// - busted and luassert themselves come from LuaLS's own third-party definitions, which the
///   `.luarc.json` names.
///
/// ```swift
/// try StubGenerator.write(project: ".")   // types/sendingstate.d.lua and .luarc.json
/// ```
public enum StubGenerator {
  /// The folder, inside the project, that holds the stubs.
  public static let stubFolder = "types"

  /// busted's globals, for editors without LuaLS's busted definitions.
  public static let bustedGlobals = [
    "describe", "context", "insulate", "expose", "it", "spec", "test", "pending", "setup", "teardown", "lazy_setup",
    "lazy_teardown", "strict_setup", "strict_teardown", "before_each", "after_each", "finally", "randomize", "spy",
    "stub", "mock", "match",
  ]

  /// The screen driver's methods (`ss.open(...)`), documented for editors.
  package static let driverMethods: [LuaHostAPI.Member] = [
    .init(name: "tap", signature: "fun(self: SSScreen, id: string)", doc: "touchUpInside on a control, a tap gesture on a view."),
    .init(name: "send", signature: "fun(self: SSScreen, id: string, event: SSEventName)", doc: "Fires an event."),
    .init(name: "set", signature: "fun(self: SSScreen, id: string, value: any)", doc: "Sets a control's value as a user would."),
    .init(name: "type", signature: "fun(self: SSScreen, id: string, text: string)", doc: "Types into a text field."),
    .init(name: "gesture", signature: "fun(self: SSScreen, id: string, kind: SSGestureName, params: table?)", doc: "Performs a gesture."),
    .init(name: "row", signature: "fun(self: SSScreen, list: string, index: integer): SSScreen", doc: "A driver for one list row."),
    .init(
      name: "settle", signature: "fun(self: SSScreen, seconds: number?)",
      doc: "Waits for the screen's effects (default: test --settle); fails listing what is still pending."),
    .init(
      name: "advance", signature: "fun(self: SSScreen, seconds: number)",
      doc: "Moves a virtual clock (ss.open(path, { clock = 0 })) on: timers due by then fire in order, and their actions are handled."),
    .init(name: "tree", signature: "fun(self: SSScreen): string", doc: "The render tree as text."),
    .init(
      name: "why", signature: "fun(self: SSScreen): string?",
      doc: "Why the last driven step did nothing (a reason a line), or nil when its actions reached handle."),
    .init(name: "close", signature: "fun(self: SSScreen)", doc: "Closes the screen."),
    .init(
      name: "expect", signature: "fun(self: SSScreen, action: string|table, change: fun(state: table)?)",
      doc: "Performs an action; change(state) must turn a copy of the state before into the state after (leave it out when nothing may change)."),
    .init(
      name: "receive", signature: "fun(self: SSScreen, action: string|table, change: fun(state: table)?)",
      doc: "The next action an effect dispatched must be this one; change(state) must make its state change."),
    .init(
      name: "assert_state", signature: "fun(self: SSScreen, expected: table)",
      doc: "The whole state must equal expected, numbers' subtypes included (2 is not 2.0); fails listing the differences."),
    .init(name: "finish", signature: "fun(self: SSScreen)", doc: "Fails if actions from effects were not received or effects still run."),
    .init(name: "skip_received", signature: "fun(self: SSScreen)", doc: "Accepts the actions received so far without asserting them."),
    .init(name: "skip_in_flight", signature: "fun(self: SSScreen)", doc: "Effects still running at the end of the test are not owed."),
    .init(
      name: "pending_effects", signature: "fun(self: SSScreen): { number: integer, id: string?, kind: string, due: number?, remaining: number?, window: number?, waiting: string?, effect: string?, debounce: number? }[]",
      doc: "What the screen waits for, soonest first: effects (kind timer or running), throttle windows and transitions, with their ids, what the script started (effect: after, fetch, task) and its debounce, windows and due times on its clock."),
  ]

  /// The LuaLS class name of a view kind: `SSLabel`.
  static func className(_ kind: String) -> String {
    "SS" + kind.prefix(1).uppercased() + kind.dropFirst()
  }

  /// The LuaLS class name of a builder's argument: `SSLabelProps`.
  static func propsName(_ kind: String) -> String { className(kind) + "Props" }

  static let sharedProperties: Set<String> = ["id", "kind", "hidden", "alpha", "enabled"]

  /// The contents of `sendingstate.d.lua`.
  @MainActor
  public static var stubs: String { stubs(plugins: []) }

  /// The contents of `sendingstate.d.lua` for screens that run with `plugins`: their
  /// components are `ui.<name>` builders too (their modules are found through the
  /// `.luarc.json` of ``luarc(plugins:)``).
  @MainActor
  public static func stubs(plugins: [PluginManifest]) -> String {
    let kinds = LuaHostAPI.viewKinds
    var lines = [
      "---@meta sendingstate",
      "-- Generated by `sendingstate stubs` from the host's binding registry. Do not edit.",
      "-- Host API version \(LuaHostAPI.version).",
      "",
      "---@alias SSEventName " + (ControlEventNames.all + GestureNames.all).map { "\"\($0)\"" }.joined(separator: "|"),
      "---@alias SSGestureName " + GestureNames.all.map { "\"\($0)\"" }.joined(separator: "|"),
      "",
      "---An action: a table with a `type` (and any data), or just the type.",
      "---@class SSActionTable",
      "---@field type string What happened (handle switches on it).",
      "---@field [string] any",
      "",
      "---@alias SSAction string|SSActionTable",
      "---@alias SSOn fun(sender: SSView, event: SSEventName|table, callback: fun(state: table, sender: SSAnyView, phase: string): (SSAction|SSAction[]|nil))",
      "",
    ]
    for kind in kinds {
      lines.append("---@class \(className(kind.name))\(kind.name == "view" ? "" : ": SSView")")
      for property in kind.properties where kind.name == "view" || !sharedProperties.contains(property.name) {
        lines.append("---@field \(property.name) \(property.luaType) \(property.doc)\(property.writable ? "" : " (read-only)")")
      }
      lines.append("")
    }
    // Any view: what view.<id> and a sender are (the kind is known only at run time).
    var anyFields: [(name: String, types: [String], doc: String)] = []
    for kind in kinds where kind.name != "view" {
      for property in kind.properties where !sharedProperties.contains(property.name) {
        if let index = anyFields.firstIndex(where: { $0.name == property.name }) {
          if !anyFields[index].types.contains(property.luaType) { anyFields[index].types.append(property.luaType) }
        } else {
          anyFields.append((property.name, [property.luaType], property.doc))
        }
      }
    }
    lines.append("---Any view: `view.<id>` in configure and events, and a callback's sender.")
    lines.append("---@class SSAnyView: SSView")
    for field in anyFields {
      lines.append("---@field \(field.name) \(field.types.joined(separator: "|")) \(field.doc)")
    }
    lines.append("")
    lines.append("---The views of a screen (or a row, or a unit) by id.")
    lines.append("---@class SSViews")
    lines.append("---@field [string] SSAnyView")
    lines.append("")
    for kind in kinds where kind.hasBuilder {
      lines.append("---The argument of `ui.\(kind.name) { … }`: properties, and child views as array items.")
      lines.append("---@class \(propsName(kind.name))")
      lines.append("---@field id string? The view's id (unique in the screen).")
      for property in kind.properties where property.writable {
        lines.append("---@field \(property.name) \(optional(property.luaType)) \(property.doc)")
      }
      if kind.name == "list" {
        for member in LuaHostAPI.listBuilderFunctions {
          lines.append("---@field \(member.name) \(optional(member.signature)) \(member.doc)")
        }
      }
      lines.append("---@field [integer] SSView")
      lines.append("")
    }
    lines.append("---@class SSUI")
    for kind in kinds where kind.hasBuilder {
      lines.append(
        "---@field \(kind.name) fun(props: \(propsName(kind.name))): \(className(kind.name)) Builds a \(kind.name) view.")
    }
    for plugin in plugins {
      for component in plugin.provides.components {
        lines.append(
          "---@field \(component) fun(props: table): SSView A component of plugin '\(plugin.name)' \(plugin.version): \(plugin.description)")
      }
    }
    lines.append("")
    lines.append("---@class SSStore")
    lines.append("---@field state table The current state (read-only).")
    for member in LuaHostAPI.storeMethods {
      lines.append("---@field \(member.name) \(member.signature) \(member.doc)")
    }
    lines.append("")
    lines.append("---An effect a screen's reduce returns: a timer, a fetch, a host task, or an action to queue.")
    lines.append("---@class SSEffect")
    lines.append("---@field after number? Seconds until `action` is dispatched.")
    lines.append("---@field action SSAction? The action a timer dispatches.")
    lines.append("---@field fetch string? A URL to fetch (a GET unless `method` says); its result is dispatched as `ok` or `fail`.")
    lines.append("---@field ok string? The action type of a fetch's or a task's success.")
    lines.append("---@field fail string? The action type of a fetch's or a task's failure.")
    lines.append("---@field run string? A task the host app registered; its value is dispatched as `ok` (value), a failure as `fail` (error).")
    lines.append("---@field method SSFetchMethod? A fetch's method (default GET).")
    lines.append("---@field headers table<string, string>? A fetch's headers by name (not Host, Content-Length, Transfer-Encoding, Connection, Expect…).")
    lines.append("---@field body string? A fetch's body: UTF-8 text, e.g. json.encode(t) (not on a GET; at most maxFetchBodyBytes, 256 KiB by default).")
    lines.append("---@field input any? The input of a `run` task.")
    lines.append("---@field dispatch SSAction? An action to queue after this one.")
    lines.append("---@field cancel string? Cancels the effects started with this id.")
    lines.append("---@field id string? Names the effect (for cancel, replace, debounce, throttle).")
    lines.append("---@field replace boolean? Cancel the running effects with this id first (latest wins).")
    lines.append("---@field debounce number? Wait this long first; a newer effect with the id replaces this one.")
    lines.append("---@field throttle number? At most one effect with the id per this many seconds.")
    lines.append("---@field latest boolean? For throttle: keep the latest effect of a window (default) or the first.")
    lines.append("")
    lines.append("---How an effect relates to the others with its id.")
    lines.append("---@class SSEffectOptions")
    lines.append("---@field id string The effect's name: store:cancel(id) cancels it.")
    lines.append("---@field replace boolean? Cancel the running effects with this id first (latest wins).")
    lines.append("---@field debounce number? Wait this long first; a newer effect with the id replaces this one.")
    lines.append("---@field throttle number? At most one effect with the id per this many seconds: the first at once, the kept one at the window's end.")
    lines.append("---@field latest boolean? For throttle: keep the latest effect of a window (default) or the first.")
    lines.append("")
    lines.append("---How a fetch is sent, and how it relates to the other effects with its id.")
    lines.append("---@class SSFetchOptions")
    lines.append("---@field method SSFetchMethod? The method (default GET; a body needs another).")
    lines.append("---@field headers table<string, string>? Headers by name: tokens, given once each; values one line of text; at most 64, 16 KiB together. No Content-Type is added unless given; Host, Content-Length, Transfer-Encoding, Connection, Expect and Proxy-* are the host's.")
    lines.append("---@field body string? The body: UTF-8 text, e.g. json.encode(t) (at most maxFetchBodyBytes, 256 KiB by default). A 307/308 redirect to another origin fails rather than re-send it; a 303 (or a 301/302 after a POST) becomes a GET without it.")
    lines.append("---@field id string? The effect's name: store:cancel(id) cancels it.")
    lines.append("---@field replace boolean? Cancel the running effects with this id first (latest wins).")
    lines.append("---@field debounce number? Wait this long first; a newer effect with the id replaces this one.")
    lines.append("---@field throttle number? At most one effect with the id per this many seconds: the first at once, the kept one at the window's end.")
    lines.append("---@field latest boolean? For throttle: keep the latest effect of a window (default) or the first.")
    lines.append("")
    lines.append("---@alias SSFetchMethod \"GET\"|\"POST\"|\"PUT\"|\"PATCH\"|\"DELETE\"")
    lines.append("")
    lines.append("---A request a screen's fake fetcher was sent (`screen.fetches`).")
    lines.append("---@class SSSentRequest")
    lines.append("---@field url string The URL as the script wrote it.")
    lines.append("---@field method SSFetchMethod The method (upper case).")
    lines.append("---@field headers table<string, string> The headers by name, as the script wrote them.")
    lines.append("---@field body string? The body, if one was sent.")
    lines.append("")
    lines.append("---A named state of a screen (`states.<name>`): what changes on entering it, on each commit in it, and after its transition.")
    lines.append("---@class SSNamedState")
    lines.append("---@field set (fun(view: SSViews, state: table))? Runs when the screen enters the state (then update runs).")
    lines.append("---@field update (fun(view: SSViews, state: table))? Runs on every commit in the state, and after set.")
    lines.append("---@field done (fun(view: SSViews, state: table))? Runs when the transition's time has passed.")
    lines.append("---@field transition number? Seconds the state takes to become current (default 0: at once).")
    lines.append("")
    lines.append("---A server-driven unit's script.")
    lines.append("---@class SSUnitModule")
    lines.append("---@field layout fun(ui: SSUI): SSView")
    lines.append("---@field configure (fun(view: SSViews, data: table, state: table))?")
    lines.append("---@field events (fun(view: SSViews, on: SSOn))?")
    lines.append("")
    lines.append("---What a screen script returns.")
    lines.append("---@class SSScreenTable")
    for member in LuaHostAPI.screenFields {
      lines.append("---@field \(member.name) \(typed(member.signature)) \(member.doc)")
    }
    lines.append("")
    lines.append("---A screen opened by a spec (`ss.open`).")
    lines.append("---@class SSScreen")
    lines.append("---@field state table A snapshot of the screen's state.")
    lines.append("---@field actions SSActionTable[] The actions dispatched so far.")
    lines.append("---@field pending integer How many effects are still running.")
    lines.append("---@field fetches SSSentRequest[] The requests store:fetch sent to the fake answers (ss.open's fetch), oldest first.")
    lines.append(
      "---@field named {current: string?, from: string?, to: string?}? The named state (`states`): current, and from/to while a transition runs; nil without `states`.")
    lines.append("---@field time number The screen's clock: seconds since 1970 (virtual with ss.open(path, { clock = … })).")
    lines.append("---@field view SSViews view.<id>.<property> reads a view's property (read-only).")
    for member in driverMethods {
      lines.append("---@field \(member.name) \(member.signature) \(member.doc)")
    }
    lines.append("")
    lines.append("---@class SSOpenOptions")
    lines.append("---@field state table? A start state instead of the script's.")
    lines.append("---@field data string? A server-driven payload (a JSON file beside the spec or from the project root).")
    lines.append("---@field plugins string[]? Plugin folders to run with (beside the spec or from the project root).")
    lines.append("---@field clock number? A virtual clock standing at this time (seconds since 1970): timers wait for screen:advance.")
    lines.append("---@field fetch table<string, { status: integer?, body: string?, json: any, error: string? }>? Fake answers for store:fetch, by URL, or by `POST <url>` for one method only (no network); screen.fetches lists what was sent.")
    lines.append("---@field tasks table<string, { value: any, error: string? }>? Fake answers for store:run, by task name.")
    lines.append("---@field random_seed integer? Seeds the screen's math.random, so the spec repeats (default: host entropy).")
    lines.append("")
    lines.append("---`require \"sendingstate\"`.")
    lines.append("---@class SSModule")
    lines.append("---@field version string The host API version.")
    lines.append(
      "---@field open fun(path: string, options: SSOpenOptions?): SSScreen Opens a screen beside the spec or from the project root (specs only).")
    lines.append(
      "---@field invariant fun(name: string|fun(state: table, view: SSViews): any, fn: (fun(state: table, view: SSViews): any)?) "
        + "Declares a check that must hold after every step of each screen this spec file opens (fn returns true while the screen is right); explore --spec FILE checks it too.")
    lines.append("")
    lines.append("---luassert, as extended by `sendingstate test`.")
    lines.append("---@class luassert")
    lines.append(
      "---@field tree_matches fun(screen: SSScreen|string, name: string?) The render tree matches __snapshots__/<spec>/<name>.tree beside the spec.")
    lines.append(
      "---@field picture_matches fun(screen: SSScreen|string, name: (string|{ tolerance: number })?, options: { tolerance: number }?) "
        + "The screen's picture matches __snapshots__/<spec>/<name>.png (tolerance: the fraction of pixels that may differ, default 0.0001).")
    lines.append("")
    lines.append("---@type SSModule")
    lines.append("local sendingstate = {}")
    lines.append("return sendingstate")
    lines.append("")
    return lines.joined(separator: "\n")
  }

  /// The definition file of a Swift plugin's module (`types/json.lua`): `require "json"` is
  /// typed through it.
  public static func stub(of module: NativeModule, plugin: any NativePlugin) -> String {
    let local = module.name.replacingOccurrences(of: ".", with: "_")
    var lines = [
      "---@meta \(module.name)",
      "-- Generated by `sendingstate stubs` from the Swift plugin \(plugin.name) \(plugin.version). Do not edit.",
      "",
    ]
    if !module.doc.isEmpty { lines.append("---\(module.doc)") }
    lines.append("local \(local) = {}")
    for function in module.functions.sorted(by: { $0.name < $1.name }) {
      lines.append("")
      lines.append("---\(function.doc)")
      lines.append("---@type \(function.signature)")
      lines.append("\(local).\(function.name) = nil")
    }
    lines.append("")
    lines.append("return \(local)")
    lines.append("")
    return lines.joined(separator: "\n")
  }

  /// `T` → `T?` (a builder argument may leave any property out).
  private static func optional(_ type: String) -> String {
    if type.hasSuffix("?") { return type }
    if type.contains("|") || type.hasPrefix("fun(") { return "(\(type))?" }
    return type + "?"
  }

  /// The registry's signatures with the views table and units typed.
  private static func typed(_ signature: String) -> String {
    signature.replacingOccurrences(of: "table<string, SSView>", with: "SSViews")
      .replacingOccurrences(of: "table<string, SSUnit>", with: "table<string, SSUnitModule>")
  }

  /// The `.luarc.json` of a project whose stubs are in `types/`.
  public static var luarc: String { luarc(plugins: []) }

  /// The `.luarc.json` of a project whose stubs are in `types/`, whose screens run with
  /// `plugins`: the folder holding each plugin is a library, so `require "<plugin>.<module>"`
  /// resolves to `<plugin>/<module>.lua` (for a plugin kept in a folder of its own name).
  public static func luarc(plugins: [PluginManifest]) -> String {
    var libraries = [stubFolder, "${3rd}/busted/library", "${3rd}/luassert/library"]
    for plugin in plugins {
      let parent = (plugin.folder as NSString).deletingLastPathComponent
      let library = parent.isEmpty ? "." : parent
      if !libraries.contains(library) { libraries.append(library) }
    }
    let quoted = libraries.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
    return """
    {
      "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
      "runtime.version": "Lua 5.4",
      "workspace.library": [\(quoted.joined(separator: ", "))],
      "diagnostics.globals": [\(bustedGlobals.map { "\"\($0)\"" }.joined(separator: ", "))]
    }

    """
  }

  /// The `.luarc.json` to write over `existing` (the file's text, if there is one): the user's
  /// keys are kept, and the libraries and globals the stubs need are added to theirs (in the
  /// dotted or the nested form, whichever the file uses). `nil` when `existing` already has all
  /// they need (the file is left as it is).
  ///
  /// - Throws: ``ToolError`` naming `path` when `existing` is not a JSON object.
  public static func mergedLuarc(_ existing: String?, plugins: [PluginManifest] = [], path: String = ".luarc.json") throws -> String? {
    let ours = luarc(plugins: plugins)
    guard let existing else { return ours }
    guard let data = existing.data(using: .utf8),
      let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
      var object = parsed as? [String: Any]
    else {
      throw ToolError.usage("'\(path)' is not a JSON object; fix it or move it away (it was left as it is)")
    }
    let wanted = (try? JSONSerialization.jsonObject(with: Data(ours.utf8))) as? [String: Any] ?? [:]
    var changed = false
    for (key, value) in wanted where !key.contains(".") && object[key] == nil {
      object[key] = value
      changed = true
    }
    for key in ["runtime.version", "workspace.library", "diagnostics.globals"] {
      let parts = key.split(separator: ".").map(String.init)
      var nested = object[parts[0]] as? [String: Any]
      let current = object[key] ?? nested?[parts[1]]
      let needed = wanted[key]
      if let values = needed as? [String] {
        if let current, !(current is [Any]) {
          throw ToolError.usage("'\(path)': \(key) is not a list; fix it or move it away (it was left as it is)")
        }
        var list = current as? [Any] ?? []
        let have = Set(list.compactMap { $0 as? String })
        let missing = values.filter { !have.contains($0) }
        guard !missing.isEmpty else { continue }
        list += missing as [Any]
        changed = true
        if object[key] == nil, nested != nil {
          nested?[parts[1]] = list
          object[parts[0]] = nested
        } else {
          object[key] = list
        }
      } else if current == nil, let needed {
        object[key] = needed  // runtime.version: the user's own choice stands
        changed = true
      }
    }
    guard changed else { return nil }
    let out = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    return String(decoding: out, as: UTF8.self) + "\n"
  }

  /// The folder, inside ``stubFolder``, that holds each screen's classes.
  public static let screenFolder = "screens"

  /// The screens under `paths` (files as given, folders searched; specs, hidden folders,
  /// `types/`, plugin manifests and the files a plugin's manifest names left out; only scripts
  /// that return a table with `layout` and `state`), sorted.
  @MainActor
  public static func screens(in paths: [String]) throws -> [String] {
    var found: [String] = []
    for script in try Checker.scripts(in: paths) {
      let parts = script.split(separator: "/")
      if parts.dropLast().contains(where: { $0 == Substring(stubFolder) }) { continue }
      if (script as NSString).lastPathComponent == PluginManifest.fileName { continue }
      if let plugin = Checker.pluginFolder(of: script),
        Checker.namedFiles(of: plugin)?.contains(URL(fileURLWithPath: script).standardizedFileURL.path) ?? false
      {
        continue
      }
      let folder = PathText.folder(of: script)
      guard let runtime = try? LuaRuntime(configuration: .init(scriptRoots: [folder.isEmpty ? "." : folder])) else { continue }
      runtime.output = { _ in }
      guard let chunk = try? runtime.loadFile(script) else {
        found.append(script)  // opening it reports the error
        continue
      }
      let source = (try? FileInput.bytes(script, what: "script")).map { String(decoding: $0, as: UTF8.self) } ?? ""
      if Checker.looksLikeScreen(runtime: runtime, chunk: chunk, source: source) { found.append(script) }
    }
    return found
  }

  /// The names of `screens`' definition files and classes: the file name, with as many of its
  /// folders in front as make it unique (`plugins/analytics/demo.lua` → `analytics_demo`,
  /// classes `AnalyticsDemo.*`, when another screen is a `demo.lua` too).
  public static func names(for screens: [String]) -> [String: String] {
    func parts(_ path: String) -> [String] {
      URL(fileURLWithPath: path).standardizedFileURL.deletingPathExtension().pathComponents.filter { $0 != "/" }
    }
    let all = Dictionary(screens.map { ($0, parts($0)) }, uniquingKeysWith: { first, _ in first })
    // The shortest suffix of each path's folders that no other path shares.
    var depths: [String: Int] = [:]
    for screen in screens {
      let mine = all[screen] ?? []
      var depth = 1
      while depth < mine.count, screens.contains(where: { $0 != screen && Array((all[$0] ?? []).suffix(depth)) == Array(mine.suffix(depth)) }) {
        depth += 1
      }
      depths[screen] = depth
    }
    // Joined, two suffixes can still read the same (`one/b_c` and `b/c` are both `b_c`), and
    // two names the same class (`my-list` and `my_list` are both `MyList`): those go deeper,
    // and past their whole path take a number, so no file or class is written twice.
    func name(_ screen: String) -> String { (all[screen] ?? []).suffix(depths[screen] ?? 1).joined(separator: "_") }
    var names: [String: String] = [:]
    for _ in 0..<64 {
      var groups: [String: [String]] = [:]
      for screen in screens { groups[ScreenTypes.pascal(name(screen)), default: []].append(screen) }
      let clashing = groups.values.filter { $0.count > 1 }
      if clashing.isEmpty { break }
      var deeper = false
      for group in clashing {
        for screen in group where (depths[screen] ?? 1) < (all[screen]?.count ?? 0) {
          depths[screen, default: 1] += 1
          deeper = true
        }
      }
      if !deeper { break }
    }
    var taken: Set<String> = []
    for screen in screens.sorted() {
      var candidate = name(screen)
      var number = 2
      while taken.contains(ScreenTypes.pascal(candidate)) {
        candidate = name(screen) + "_\(number)"
        number += 1
      }
      taken.insert(ScreenTypes.pascal(candidate))
      names[screen] = candidate
    }
    return names
  }

  /// Writes `types/sendingstate.d.lua`, one `types/<module>.lua` per module of the Swift
  /// plugins `natives`, one `types/screens/<screen>.d.lua` per screen found under `screens`
  /// (``ScreenTypes``), and `.luarc.json` (pointing at them, merged into one that is there)
  /// into `project`, for screens that run with `plugins`.
  ///
  /// Every screen is read before anything is written: a screen named in `screens` that does
  /// not open, or a `.luarc.json` that is not a JSON object, is an error and nothing is
  /// written; a file found in a folder that does not open as a screen is left out, told to
  /// `warn`.
  ///
  /// - Returns: the paths written.
  @MainActor
  @discardableResult
  public static func write(
    project: String, plugins: [PluginManifest] = [], natives: [any NativePlugin] = BuiltInPlugins.all, screens: [String] = [],
    pluginFolders: [String] = [], warn: (String) -> Void = { _ in }
  ) throws -> [String] {
    let folder = (project as NSString).appendingPathComponent(stubFolder)
    let stubPath = (folder as NSString).appendingPathComponent("sendingstate.d.lua")
    let luarcPath = (project as NSString).appendingPathComponent(".luarc.json")
    let found = try self.screens(in: screens)
    let names = self.names(for: found)
    // The files named themselves (not found in a folder).
    let named = Set(screens.filter { path in
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
    }.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
    var typed: [(String, ScreenTypes)] = []
    for screen in found {
      let name = names[screen] ?? "screen"
      // Named from the project in the file when the screen is inside it (`screen.lua`).
      let base = URL(fileURLWithPath: project).standardizedFileURL.path
      let full = URL(fileURLWithPath: screen).standardizedFileURL.path
      let shown = full.hasPrefix(base + "/") ? String(full.dropFirst(base.count + 1)) : screen
      do {
        typed.append((name, try ScreenTypes.read(path: screen, prefix: ScreenTypes.pascal(name), plugins: pluginFolders, shown: shown)))
      } catch {
        // A file named on the command line must open; one found in a folder may be any Lua
        // file that mentions a layout: it is left out, saying why, and the rest are written.
        guard !named.contains(full) else { throw error }
        warn("\(shown): left out of the screen types: \(ToolError.from(error).description)")
      }
    }
    var existing: String?
    if FileManager.default.fileExists(atPath: luarcPath) {
      do {
        existing = try String(contentsOfFile: luarcPath, encoding: .utf8)
      } catch {
        throw ToolError.usage("cannot read '\(luarcPath)' (\(error.localizedDescription)); it was left as it is")
      }
    }
    let luarcText = try mergedLuarc(existing, plugins: plugins, path: luarcPath)
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try stubs(plugins: plugins).write(toFile: stubPath, atomically: true, encoding: .utf8)
      var written = [stubPath]
      for native in natives {
        for module in native.modules {
          let path = (folder as NSString).appendingPathComponent("\(module.name).lua")
          try stub(of: module, plugin: native).write(toFile: path, atomically: true, encoding: .utf8)
          written.append(path)
        }
      }
      if !typed.isEmpty {
        let screenFolder = (folder as NSString).appendingPathComponent(screenFolder)
        try FileManager.default.createDirectory(atPath: screenFolder, withIntermediateDirectories: true)
        for (name, types) in typed {
          let path = (screenFolder as NSString).appendingPathComponent("\(name).d.lua")
          try types.definitions.write(toFile: path, atomically: true, encoding: .utf8)
          written.append(path)
        }
      }
      if let luarcText {
        try luarcText.write(toFile: luarcPath, atomically: true, encoding: .utf8)
        written.append(luarcPath)
      }
      return written
    } catch {
      throw ToolError.usage("cannot write the stubs into '\(project)' (\(error.localizedDescription))")
    }
  }
}

/// Control event names, from the core's own table.
enum ControlEventNames {
  static let all = ControlEvents.named.map(\.name)
}

/// Gesture names, from the core's own table.
enum GestureNames {
  static let all = SenderEvent.Gesture.Kind.named.map(\.name)
}
