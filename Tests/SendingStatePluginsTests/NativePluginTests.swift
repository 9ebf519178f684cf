import Foundation
import SendingStateHeadless
import SendingStateLua
import Testing

@testable import SendingStatePlugins

@Suite("Swift plugins: json and format built in, and any Swift type that adopts NativePlugin")
@MainActor
struct NativePluginTests {
  func screenFixture(_ name: String) -> String {
    Bundle.module.resourceURL!.appendingPathComponent("Fixtures/screens/\(name)").path
  }

  func open(
    _ name: String = "natives.lua", natives: [any NativePlugin] = BuiltInPlugins.all, grants: PluginGrants = .init(),
    clock: any ScreenClock = SystemScreenClock()
  ) throws -> LuaScreen {
    var options = LuaScreen.Options()
    options.clock = clock
    PluginSet.load(environment: [:], hostAPI: host, grants: grants, natives: natives).apply(to: &options)
    return try LuaScreen(path: screenFixture(name), options: options)
  }

  /// What `action` leaves in state.out.
  func out(_ screen: LuaScreen, _ action: LuaValue) throws -> String? {
    try screen.perform(action: action)
    return screen.state["out"].stringValue
  }

  @Test("json: encode sorts keys and makes arrays of sequences; decode reads back; both within the host's limits")
  func json() throws {
    let screen = try open()
    #expect(try out(screen, ["type": "encode", "value": ["b": 1, "a": [1, 2, "x"], "c": ["d": true]]]) == #"{"a":[1,2,"x"],"b":1,"c":{"d":true}}"#)
    #expect(try out(screen, ["type": "encode", "value": ["a": 1], "options": ["pretty": true]]) == "{\n  \"a\" : 1\n}")
    #expect(try out(screen, ["type": "decode", "text": #"{"z": [1, 2.5, {"k": null}], "a": "é\n"}"#]) == #"{"a":"é\n","z":[1,2.5,{}]}"#)
    #expect(try out(screen, ["type": "decoded", "text": #"{"x": [1, 2.0]}"#]) == "2")  // whole numbers are integers
    let before = screen.state
    let bad = #expect(throws: ScriptError.self) { try screen.perform(action: ["type": "decode", "text": "{\n  \"a\": }"]) }
    #expect(bad?.message.hasPrefix("json.decode: ") == true && bad?.message.contains("line 2") == true, "\(String(describing: bad))")
    #expect(bad?.line == 12)
    let deep = #expect(throws: ScriptError.self) {
      try screen.perform(action: ["type": "decode", "text": .string(String(repeating: "[", count: 100) + String(repeating: "]", count: 100))])
    }
    #expect(deep?.message.contains("nested deeper than 64") == true, "\(String(describing: deep))")
    // The text is held to maxStringBytes like any string a script builds.
    var limits = LuaRuntime.Limits()
    limits.maxStringBytes = 150  // (room for the error message itself)
    var small = LuaScreen.Options(limits: limits)
    PluginSet.load(environment: [:], hostAPI: host).apply(to: &small)
    let tight = try LuaScreen(path: screenFixture("natives.lua"), options: small)
    let big = #expect(throws: ScriptError.self) {
      try tight.perform(action: ["type": "encode", "value": .table(LuaTable(sequence: Array(repeating: 12345, count: 30)))])
    }
    #expect(big?.message.hasPrefix("json.encode: the text would be 181 bytes, more than maxStringBytes (150)") == true, "\(String(describing: big))")
    // Strings are counted before the text is built.
    let long = #expect(throws: ScriptError.self) {
      try tight.perform(action: ["type": "encode", "value": .table(LuaTable(sequence: Array(repeating: .string(String(repeating: "x", count: 20)), count: 10)))])
    }
    #expect(long?.message.hasPrefix("json.encode: the text would be more than maxStringBytes (150)") == true, "\(String(describing: long))")
    let function = #expect(throws: ScriptError.self) { try screen.perform(action: "function") }
    #expect(function?.message.hasPrefix("json.encode: value.f (a function") == true, "\(String(describing: function))")
    #expect(function?.line == 15)
    // Nobody can change the module for the others.
    let patch = #expect(throws: ScriptError.self) { try screen.perform(action: "patch") }
    #expect(patch?.message == "module 'json' is read-only (it cannot change for other scripts)")
    #expect(patch?.line == 14)
    let raw = #expect(throws: ScriptError.self) { try screen.perform(action: "rawpatch") }
    #expect(raw?.message.contains("rawset cannot write a read-only value") == true, "\(String(describing: raw))")
    #expect(raw?.line == 17)
    #expect(screen.state == before)
  }

  @Test("format: numbers, percentages, currency, dates and relative times as each locale writes them (CLDR)")
  func format() throws {
    let screen = try open()
    func call(_ function: String, _ a: LuaValue, _ b: LuaValue = .nil, _ c: LuaValue = .nil) throws -> String? {
      try out(screen, ["type": .string(function), "a": a, "b": b, "c": c])
    }
    #expect(try call("number", 1234.5, ["decimals": 2]) == "1,234.50")
    #expect(try call("number", 1234.5, ["decimals": 2, "locale": "de_DE"]) == "1.234,50")
    #expect(try call("number", 1234.5, ["decimals": 1, "locale": "fr_FR"]) == "1\u{202F}234,5")
    #expect(try call("percent", 0.25) == "25%")
    #expect(try call("percent", 0.25, ["locale": "fr_FR"]) == "25\u{00A0}%")
    #expect(try call("currency", 1234.5, "EUR", ["locale": "de_DE"]) == "1.234,50\u{00A0}€")
    #expect(try call("currency", 1234.5, "USD") == "$1,234.50")
    #expect(try call("currency", 1234.0, "JPY") == "¥1,234")  // no minor unit
    #expect(try call("date", 1_700_000_000) == "Nov 14, 2023")
    #expect(try call("date", 1_700_000_000, ["date": "long", "time": "short", "timezone": "Europe/Paris"]) == "November 14, 2023 at 11:13\u{202F}PM")
    #expect(try call("date", 1_700_000_000, ["date": "short", "locale": "de_DE"]) == "14.11.23")
    #expect(try call("relative", 0, 7200) == "2 hours ago")
    #expect(try call("relative", .integer(3 * 86400), 0) == "in 3 days")
    #expect(try call("relative", 0, .integer(3 * 86400), ["locale": "fr_FR"]) == "il y a 3 jours")
    #expect(try call("relative", 0, 86400, ["named": true]) == "yesterday")
    // Mistakes are errors that say how to write it, at the caller's line.
    for (function, a, b, c, message) in [
      ("number", LuaValue.string("x"), LuaValue.nil, LuaValue.nil, "format.number: argument 1 must be a number (got string)"),
      ("number", 1, ["locale": "xx_YY"], .nil, "format.number: unknown locale \"xx_YY\""),
      ("number", 1, ["decimals": 99], .nil, "format.number: decimals must be a whole number from 0 to 20"),
      ("currency", 1, "euro", .nil, "format.currency: 'euro' is not a currency code"),
      ("date", 1, ["date": "tiny"], .nil, "format.date: date must be one of none, short, medium, long, full"),
      ("date", 1, ["timezone": "Mars/Olympus"], .nil, "format.date: unknown time zone \"Mars/Olympus\""),
      ("date", 1e300, .nil, .nil, "format.date: argument 1 must be a moment within 30,000 years of 1970"),
    ] as [(String, LuaValue, LuaValue, LuaValue, String)] {
      let error = #expect(throws: ScriptError.self) { _ = try call(function, a, b, c) }
      #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
      #expect(error?.line == 18)
    }
  }

  @Test("clock.parts: the calendar of a moment in a time zone (checked against date(1))")
  func clockParts() throws {
    let screen = try open()
    // date -u -d @0: Thu Jan  1 00:00:00 UTC 1970; TZ=Europe/Paris date -d @1700000000: Tue Nov 14 23:13:20 CET 2023
    #expect(try out(screen, ["type": "parts", "a": 0]) == #"{"day":1,"hour":0,"minute":0,"month":1,"second":0,"weekday":5,"year":1970}"#)
    #expect(
      try out(screen, ["type": "parts", "a": 1_700_000_000, "b": "Europe/Paris"])
        == #"{"day":14,"hour":23,"minute":13,"month":11,"second":20,"weekday":3,"year":2023}"#)
    let zone = #expect(throws: ScriptError.self) { try screen.perform(action: ["type": "parts", "a": 0, "b": "Nowhere"]) }
    #expect(zone?.message.hasPrefix("clock.parts: unknown time zone \"Nowhere\"") == true)
  }

  /// A Swift plugin of the tests': a module, a component and middleware in Lua text that
  /// needs timers.
  struct Ticker: NativePlugin {
    var name: String { "ticker" }
    var version: SemanticVersion { SemanticVersion(0, 1, 0) }
    var summary: String { "Counts." }
    var capabilities: LuaScreen.Capabilities { .init(timers: true) }
    var modules: [NativeModule] {
      [
        NativeModule(name: "ticker", functions: [
          NativeFunction(name: "twice", signature: "fun(n: integer): integer", doc: "2n.") { call in
            call.push(try call.integer(1) * 2)
            return 1
          }
        ])
      ]
    }
    var components: [String: String] {
      ["tick": """
        return {
          layout = function(ui) return ui.label { id = "n" } end,
          configure = function(view, props, state) view.n.text = tostring(state.n * props.scale) end,
        }
        """]
    }
    var middleware: [(name: String, source: String)] {
      [("later", """
        return function(action, store)
          if action.type == "later" then store:after(1, "tick") end
          if action.type == "boom" then error("exploded") end
          return action
        end
        """)]
    }
  }

  /// A Swift plugin of the tests' whose middleware drops every `secret` action.
  struct Gate: NativePlugin {
    var name: String { "gate" }
    var version: SemanticVersion { SemanticVersion(0, 1, 0) }
    var summary: String { "Drops secrets." }
    var middleware: [(name: String, source: String)] {
      [("drop", """
        return function(action)
          if action.type == "secret" then return false end
          return action
        end
        """)]
    }
  }

  @Test("an action middleware dropped is explained: the step names the middleware, its plugin and its line")
  func droppedIsExplained() throws {
    let screen = try open("gated.lua", natives: [Gate()])
    let step = try screen.tap("b")
    // The action was dispatched (it is in the step) but handle never saw it.
    #expect(step.actions == [["type": "secret"]] && screen.state["seen"] == 0)
    #expect(
      step.why == [
        "<swift plugin gate>/middleware/drop.lua:1: middleware 'drop' of plugin 'gate' dropped action 'secret' (it returned false), so handle never saw it"
      ])
    let performed = try screen.perform(action: "secret")
    #expect(performed.why == step.why)
    #expect(try screen.perform(action: "open").why.isEmpty && screen.state["seen"] == 1)
  }

  @Test("any Swift type that adopts NativePlugin adds modules, components and middleware; its Lua text is held to its grants")
  func custom() async throws {
    let refused = PluginSet.load(environment: [:], hostAPI: host, natives: [Ticker()])
    #expect(refused.natives.isEmpty)
    #expect(refused.problems.first?.message == "it asks for timers, which was not granted: run with --grant ticker:timers")
    let clock = VirtualClock()
    let screen = try open("ticking.lua", natives: [Ticker()], grants: try PluginGrants(flags: ["ticker:timers"]), clock: clock)
    #expect((try screen.view("t.n") as? Label)?.text == "6")  // twice(1) = 2 → n = 2, scale 3
    // The middleware's timer: its action comes back through the chain to handle.
    try screen.perform(action: "later")
    #expect(screen.pendingEffects == 1)
    try await screen.advance(by: 1)
    #expect(screen.state["ticks"] == 1 && screen.pendingEffects == 0)
    #expect(screen.actionLog.map { $0["type"] } == ["later", "tick"])
    try screen.perform(action: "later")
    let before = screen.state
    let boom = #expect(throws: ScriptError.self) { try screen.perform(action: "boom") }
    #expect(boom?.chunk == "<swift plugin ticker>/middleware/later.lua" && boom?.line == 3, "\(String(describing: boom))")
    #expect(boom?.context?.contains("middleware 'later' of plugin 'ticker'") == true)
    #expect(screen.state == before)
    screen.close()
    // A Lua plugin cannot take a built-in's name.
    let folder = try scratchCopy("rating")
    defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
    let manifest = (folder as NSString).appendingPathComponent("plugin.lua")
    try (try String(contentsOfFile: manifest, encoding: .utf8)).replacingOccurrences(of: "name = \"rating\"", with: "name = \"json\"")
      .write(toFile: manifest, atomically: true, encoding: .utf8)
    let clash = PluginSet.load(explicit: [folder], environment: [:], hostAPI: host)
    #expect(clash.problems.first?.message == "'json' is the name of a plugin built into the host; rename this one")
  }
}
