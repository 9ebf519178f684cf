import Foundation
import SendingStateLua

/// `require "format"`: numbers, percentages, currency, dates and relative times as people of a
/// locale write them, through Foundation (ICU). The locale is `en_US` and the time zone UTC
/// unless a call says otherwise, so a screen shows the same text on every machine.
///
/// ```lua
/// local format = require "format"
/// format.number(1234.5, { decimals = 2 })                   -- "1,234.50"
/// format.currency(1234.5, "EUR", { locale = "de_DE" })      -- "1.234,50 €"
/// format.date(1700000000, { date = "medium", time = "short" })  -- "Nov 14, 2023 at 10:13 PM"
/// format.relative(now - 7200, now)                          -- "2 hours ago"
/// ```
public struct FormatPlugin: NativePlugin {
  /// Creates the plugin.
  public init() {}

  /// `format`.
  public var name: String { "format" }
  /// 1.0.0.
  public var version: SemanticVersion { SemanticVersion(1, 0, 0) }
  /// One line.
  public var summary: String { "Numbers, currency, dates and relative times for a locale." }

  /// The locale calls use unless they name one.
  public static let defaultLocale = "en_US"

  /// `format.number`, `percent`, `currency`, `date`, `relative`.
  public var modules: [NativeModule] {
    [
      NativeModule(
        name: "format", doc: "Numbers, currency, dates and relative times for a locale (default en_US, UTC).",
        functions: [
          NativeFunction(
            name: "number", signature: "fun(value: number, options: { decimals: integer?, locale: string? }?): string",
            doc: "A number with grouping (decimals: exactly that many digits after the point)."
          ) { call in
            let options = try Options(call, at: 2, function: "number")
            let formatter = try options.numberFormatter(.decimal)
            call.push(formatter.string(from: NSNumber(value: try Self.finite(call, 1, "number"))) ?? "")
            return 1
          },
          NativeFunction(
            name: "percent", signature: "fun(value: number, options: { decimals: integer?, locale: string? }?): string",
            doc: "A fraction as a percentage (0.25 → 25%)."
          ) { call in
            let options = try Options(call, at: 2, function: "percent")
            let formatter = try options.numberFormatter(.percent)
            call.push(formatter.string(from: NSNumber(value: try Self.finite(call, 1, "percent"))) ?? "")
            return 1
          },
          NativeFunction(
            name: "currency", signature: "fun(value: number, code: string, options: { decimals: integer?, locale: string? }?): string",
            doc: "An amount of a currency (ISO 4217 code: \"EUR\", \"USD\", \"JPY\")."
          ) { call in
            let value = try Self.finite(call, 1, "currency")
            let code = try call.string(2)
            guard code.count == 3, code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
              throw ScriptError(kind: .typeMismatch, message: "format.currency: '\(code)' is not a currency code (three capital letters, like \"EUR\")")
            }
            let options = try Options(call, at: 3, function: "currency")
            let formatter = try options.numberFormatter(.currency)
            formatter.currencyCode = code
            call.push(formatter.string(from: NSNumber(value: value)) ?? "")
            return 1
          },
          NativeFunction(
            name: "date",
            signature: "fun(seconds: number, options: { date: string?, time: string?, locale: string?, timezone: string? }?): string",
            doc: "A moment (seconds since 1970) as a date and/or time: styles none, short, medium, long, full (default: medium date, no time)."
          ) { call in
            let seconds = try Self.moment(call, 1, "date")
            let options = try Options(call, at: 2, function: "date")
            let formatter = DateFormatter()
            formatter.locale = try options.locale()
            formatter.timeZone = try options.timeZone()
            formatter.dateStyle = try options.style("date", default: .medium)
            formatter.timeStyle = try options.style("time", default: .none)
            call.push(formatter.string(from: Date(timeIntervalSince1970: seconds)))
            return 1
          },
          NativeFunction(
            name: "relative", signature: "fun(seconds: number, now: number, options: { locale: string?, named: boolean? }?): string",
            doc: "A moment relative to now (\"2 hours ago\", \"in 3 days\"; named: \"yesterday\")."
          ) { call in
            let moment = try Self.moment(call, 1, "relative")
            let now = try Self.moment(call, 2, "relative")
            let options = try Options(call, at: 3, function: "relative")
            let style = Date.AnchoredRelativeFormatStyle(
              anchor: Date(timeIntervalSince1970: moment), presentation: options.value["named"] == .boolean(true) ? .named : .numeric,
              unitsStyle: .wide, locale: try options.locale())
            call.push(style.format(Date(timeIntervalSince1970: now)))
            return 1
          },
        ])
    ]
  }

  /// Argument `index` as a finite number.
  static func finite(_ call: LuaCall, _ index: Int, _ function: String) throws -> Double {
    guard call.count >= index, call.typeName(index) == "number" else {
      throw ScriptError(kind: .typeMismatch, message: "format.\(function): argument \(index) must be a number (got \(call.typeName(index)))")
    }
    let value = try call.number(index)
    guard value.isFinite else { throw ScriptError(kind: .typeMismatch, message: "format.\(function): argument \(index) must be finite") }
    return value
  }

  /// Argument `index` as a moment: seconds since 1970, within 30,000 years of it (beyond, the
  /// calendar has nothing to say).
  static func moment(_ call: LuaCall, _ index: Int, _ function: String) throws -> Double {
    let value = try finite(call, index, function)
    guard abs(value) < 1e12 else {
      throw ScriptError(kind: .typeMismatch, message: "format.\(function): argument \(index) must be a moment within 30,000 years of 1970 (seconds)")
    }
    return value
  }

  /// Every locale identifier Foundation knows (a typo is an error, not a silent fallback).
  static let knownLocales = Set(Locale.availableIdentifiers)

  /// The options table of a call.
  struct Options {
    let value: LuaValue
    let function: String

    init(_ call: LuaCall, at index: Int, function: String) throws {
      self.function = function
      guard call.count >= index, call.typeName(index) != "nil" else {
        value = .nil
        return
      }
      guard call.typeName(index) == "table" else {
        throw ScriptError(kind: .typeMismatch, message: "format.\(function): options must be a table (got \(call.typeName(index)))")
      }
      value = try call.value(index)
    }

    func locale() throws -> Locale {
      guard value["locale"] != .nil else { return Locale(identifier: FormatPlugin.defaultLocale) }
      guard let identifier = value["locale"].stringValue, FormatPlugin.knownLocales.contains(identifier) else {
        throw ScriptError(kind: .typeMismatch, message: "format.\(function): unknown locale \(LuaValueText.shown(value["locale"])) (write one like \"en_US\", \"de_DE\", \"ja_JP\")")
      }
      return Locale(identifier: identifier)
    }

    func timeZone() throws -> TimeZone {
      guard value["timezone"] != .nil else { return TimeZone(identifier: "UTC")! }
      guard let identifier = value["timezone"].stringValue, let zone = TimeZone(identifier: identifier) else {
        throw ScriptError(kind: .typeMismatch, message: "format.\(function): unknown time zone \(LuaValueText.shown(value["timezone"])) (write one like \"UTC\", \"Europe/Paris\")")
      }
      return zone
    }

    func style(_ key: String, default fallback: DateFormatter.Style) throws -> DateFormatter.Style {
      let styles: [String: DateFormatter.Style] = ["none": .none, "short": .short, "medium": .medium, "long": .long, "full": .full]
      guard value[key] != .nil else { return fallback }
      guard let name = value[key].stringValue, let style = styles[name] else {
        throw ScriptError(kind: .typeMismatch, message: "format.\(function): \(key) must be one of none, short, medium, long, full")
      }
      return style
    }

    func numberFormatter(_ style: NumberFormatter.Style) throws -> NumberFormatter {
      let formatter = NumberFormatter()
      formatter.locale = try locale()
      formatter.numberStyle = style
      if value["decimals"] != .nil {
        guard let decimals = value["decimals"].intValue, (0...20).contains(decimals) else {
          throw ScriptError(kind: .typeMismatch, message: "format.\(function): decimals must be a whole number from 0 to 20")
        }
        formatter.minimumFractionDigits = decimals
        formatter.maximumFractionDigits = decimals
      }
      return formatter
    }
  }
}

/// How a Lua value reads in an error message.
enum LuaValueText {
  static func shown(_ value: LuaValue) -> String {
    if let text = value.stringValue { return "\"\(text)\"" }
    return "a \(value.typeName)"
  }
}
