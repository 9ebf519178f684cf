import SendingStateLua

/// A plugin written in Swift: a type that adopts this protocol registers Lua modules of Swift
/// functions, and may ship components, unit renderers and middleware as Lua text. It describes
/// every function for the editor stubs. The host's own are ``JSONPlugin``, ``FormatPlugin`` and
/// ``ClockPlugin``.
///
/// ```swift
/// struct Greeting: NativePlugin {
///   var name: String { "greeting" }
///   var version: SemanticVersion { SemanticVersion(1, 0, 0) }
///   var summary: String { "Says hello." }
///   var modules: [NativeModule] {
///     [NativeModule(name: "greeting", functions: [
///       NativeFunction(name: "hello", signature: "fun(who: string): string", doc: "A greeting.") { call in
///         call.push("hello, " + (try call.string(1))); return 1
///       },
///     ])]
///   }
/// }
/// ```
///
/// A Swift plugin runs with the host's rights (it is compiled in); the Lua text it ships runs
/// in the sandbox like any plugin's, held to ``capabilities`` as granted.
public protocol NativePlugin: Sendable {
  /// Its name (lower case letters, digits and `_`), unique among plugins.
  var name: String { get }
  /// Its version.
  var version: SemanticVersion { get }
  /// One line for `plugins list` and the stubs.
  var summary: String { get }
  /// What its Lua text needs beyond computing (granted like a Lua plugin's).
  var capabilities: LuaScreen.Capabilities { get }
  /// Modules of Swift functions.
  var modules: [NativeModule] { get }
  /// Components as Lua text, by `ui.<name>`.
  var components: [String: String] { get }
  /// Unit renderers as Lua text, by unit type.
  var units: [String: String] { get }
  /// Middleware as Lua text (each returning `function(action, store)`), in order.
  var middleware: [(name: String, source: String)] { get }
}

extension NativePlugin {
  /// None (a plugin of only middleware or components).
  public var modules: [NativeModule] { [] }
  /// None.
  public var capabilities: LuaScreen.Capabilities { LuaScreen.Capabilities() }
  /// None.
  public var components: [String: String] { [:] }
  /// None.
  public var units: [String: String] { [:] }
  /// None.
  public var middleware: [(name: String, source: String)] { [] }

  /// The name Lua text of this plugin's shows in errors: `<swift plugin json>/components/x.lua`.
  func scriptName(_ kind: String, _ item: String) -> String { "<swift plugin \(name)>/\(kind)/\(item).lua" }
}

/// A module of Swift functions, required by its name (`require "json"`).
public struct NativeModule: Sendable {
  /// The name `require` finds it under.
  public var name: String
  /// One line about it, for the stubs.
  public var doc: String
  /// Its functions.
  public var functions: [NativeFunction]

  /// Creates a module.
  public init(name: String, doc: String = "", functions: [NativeFunction]) {
    self.name = name
    self.doc = doc
    self.functions = functions
  }
}

/// A Swift function scripts call: its body, and its description for the stubs.
public struct NativeFunction: Sendable {
  /// Its name in the module.
  public var name: String
  /// Its LuaLS type (`fun(value: any): string`).
  public var signature: String
  /// What it does.
  public var doc: String
  /// The body: reads arguments from the call, pushes results, returns how many.
  public var body: LuaScreen.HostFunction
  /// Whether it hands out the wall clock: then only code granted the `clock` capability may
  /// call it (each script's view of the module checks its owner).
  public var readsClock: Bool

  /// Creates a function.
  public init(
    name: String, signature: String, doc: String, readsClock: Bool = false, body: @escaping LuaScreen.HostFunction
  ) {
    self.name = name
    self.signature = signature
    self.doc = doc
    self.readsClock = readsClock
    self.body = body
  }
}

/// The Swift plugins the host ships: `json`, `format` and `clock`.
public enum BuiltInPlugins {
  /// Every built-in Swift plugin.
  public static let all: [any NativePlugin] = [JSONPlugin(), FormatPlugin(), ClockPlugin()]
}
