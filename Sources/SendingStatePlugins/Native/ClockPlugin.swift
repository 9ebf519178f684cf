import Foundation
import SendingStateLua

/// `require "clock"`: the screen's time — the machine's, or in specs a virtual clock the spec
/// moves (`ss.open(path, { clock = 0 })`, `screen:advance(seconds)`), which `store:after`
/// timers run on too. Reading it needs the `clock` capability, like `os.time`: each script's
/// `require "clock"` is a view bound to that script's owner (a plugin, or the screen), whose
/// `now` and `since` refuse an owner without the clock — so the module cannot launder the time.
///
/// ```lua
/// local clock = require "clock"
/// local started = clock.now()            -- seconds since 1970
/// clock.since(started)                   -- seconds elapsed
/// clock.parts(clock.now(), "Europe/Paris")  -- { year = 2026, month = 11, day = 23, hour = …, weekday = 2, … }
/// ```
public struct ClockPlugin: NativePlugin {
  /// Creates the plugin.
  public init() {}

  /// `clock`.
  public var name: String { "clock" }
  /// 1.0.0.
  public var version: SemanticVersion { SemanticVersion(1, 0, 0) }
  /// One line.
  public var summary: String { "The screen's time (virtual in specs), for code granted the clock." }

  /// `clock.now`, `since`, `parts`.
  public var modules: [NativeModule] {
    [
      NativeModule(
        name: "clock", doc: "The screen's time: the machine's, or a spec's virtual clock.",
        functions: [
          NativeFunction(name: "now", signature: "fun(): number", doc: "Seconds since 1970 on the screen's clock.", readsClock: true) { call in
            try call.push(.number(try Self.now(call, "now")))
            return 1
          },
          NativeFunction(name: "since", signature: "fun(start: number): number", doc: "Seconds from `start` to now.", readsClock: true) { call in
            let start = try call.number(1)
            try call.push(.number(try Self.now(call, "since") - start))
            return 1
          },
          NativeFunction(
            name: "parts", signature: "fun(seconds: number, timezone: string?): { year: integer, month: integer, day: integer, hour: integer, minute: integer, second: integer, weekday: integer }",
            doc: "The calendar parts of a moment (Gregorian; weekday 1 = Sunday) in a time zone (default UTC)."
          ) { call in
            let seconds = try call.number(1)
            guard seconds.isFinite, abs(seconds) < 1e12 else {
              throw ScriptError(kind: .typeMismatch, message: "clock.parts: seconds must be a finite moment (within 30,000 years of 1970)")
            }
            let zoneName = try call.optionalString(2) ?? "UTC"
            guard let zone = TimeZone(identifier: zoneName) else {
              throw ScriptError(kind: .typeMismatch, message: "clock.parts: unknown time zone \"\(zoneName)\" (write one like \"UTC\", \"Europe/Paris\")")
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents(
              [.year, .month, .day, .hour, .minute, .second, .weekday], from: Date(timeIntervalSince1970: seconds))
            var table: LuaValue = [:]
            for (key, value) in [
              ("year", parts.year), ("month", parts.month), ("day", parts.day), ("hour", parts.hour), ("minute", parts.minute),
              ("second", parts.second), ("weekday", parts.weekday),
            ] {
              table[key] = .integer(Int64(value ?? 0))
            }
            try call.push(table)
            return 1
          },
        ])
    ]
  }

  /// The screen's time.
  static func now(_ call: LuaCall, _ function: String) throws -> Double {
    call.runtime.clock.now
  }
}
