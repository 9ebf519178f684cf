import SendingStateLua

/// What the user granted, beyond what a lockfile records: `--grant NAME:CAP[,CAP…]` for a
/// plugin, or `--grant screen:CAP[,CAP…]` for the screen's own code.
///
/// Capabilities: `timers`, `clock`, `net` (for a plugin: the hosts its manifest lists; for
/// the screen: any host) or `net=HOST` (one host, or `*.example.com`; repeatable).
///
/// ```swift
/// let grants = try PluginGrants(flags: ["analytics:net,clock", "screen:timers"])
/// ```
public struct PluginGrants: Sendable, Equatable {
  /// Granted to each plugin, by name (`net` of `["*"]`: the hosts its manifest lists).
  public var plugins: [String: LuaScreen.Capabilities] = [:]
  /// Granted to the screen's own code; `nil`: nothing said (the screen gets what it declares,
  /// or everything).
  public var screen: LuaScreen.Capabilities?

  /// The name that grants to the screen rather than a plugin.
  public static let screenName = "screen"

  /// Nothing granted.
  public init() {}

  /// Reads `--grant` flags.
  ///
  /// - Throws: ``PluginGrantError`` naming the flag, what is wrong and how to write it.
  public init(flags: [String]) throws(PluginGrantError) {
    for flag in flags {
      guard let colon = flag.firstIndex(of: ":"), colon != flag.startIndex else {
        throw PluginGrantError(flag: flag, message: "write NAME:CAPABILITY[,CAPABILITY…], like analytics:net,timers or screen:timers")
      }
      let name = String(flag[..<colon])
      var granted = name == Self.screenName ? screen ?? LuaScreen.Capabilities() : plugins[name] ?? LuaScreen.Capabilities()
      for item in flag[flag.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
        switch item {
        case "timers": granted.timers = true
        case "clock": granted.clock = true
        case "net": granted.net = ["*"]
        case "storage":
          throw PluginGrantError(flag: flag, message: "this host offers no storage yet (host API \(LuaScreen.apiVersion))")
        default:
          if item.hasPrefix("net="), LuaScreen.Capabilities.isHostPattern(String(item.dropFirst(4))) {
            if granted.net != ["*"] { granted.net = (granted.net ?? []) + [String(item.dropFirst(4))] }
          } else {
            throw PluginGrantError(
              flag: flag,
              message: "'\(item)' is not a capability (timers, clock, net, or net=HOST like net=api.example.com)")
          }
        }
      }
      if name == Self.screenName { screen = granted } else { plugins[name] = granted }
    }
  }
}

/// A `--grant` flag that cannot be read.
public struct PluginGrantError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The flag as given.
  public var flag: String
  /// What is wrong, and how to write it.
  public var message: String

  /// `--grant FLAG: message`.
  public var description: String { "--grant \(flag): \(message)" }
}

extension LuaScreen.Capabilities {
  /// Everything either grants (hosts listed once; `*` covers all).
  public func union(_ other: LuaScreen.Capabilities) -> LuaScreen.Capabilities {
    var net: [String]?
    if self.net != nil || other.net != nil {
      let all = (self.net ?? []) + (other.net ?? [])
      net = all.contains("*") ? ["*"] : all.reduce(into: []) { list, host in if !list.contains(host) { list.append(host) } }
    }
    return LuaScreen.Capabilities(timers: timers || other.timers, net: net, clock: clock || other.clock)
  }
}
