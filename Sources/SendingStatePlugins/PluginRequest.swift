import Foundation
import SendingStateLua

/// What a command asked for — plugin folders, grants, whether a lockfile is required — kept so
/// the plugins can be found and checked again for each screen, and on every reload (a plugin
/// removed since is unloaded; one changed is read anew, and checked against the lockfile).
///
/// ```swift
/// let request = PluginRequest(explicit: ["vendor/analytics"], grants: try PluginGrants(flags: ["analytics:net"]))
/// var options = LuaScreen.Options()
/// request.load(screen: "app/cart.lua").apply(to: &options)
/// ```
public struct PluginRequest: Sendable {
  /// Folders given with `--plugin`.
  public var explicit: [String]
  /// What the user granted.
  public var grants: PluginGrants
  /// Whether a lockfile must exist and match (`--locked`).
  public var requireLock: Bool
  /// The environment the search path is read from.
  public var environment: [String: String]
  /// The Swift plugins to run with.
  public var natives: [any NativePlugin]

  /// Creates a request.
  public init(
    explicit: [String] = [], grants: PluginGrants = PluginGrants(), requireLock: Bool = false,
    environment: [String: String] = ProcessInfo.processInfo.environment, natives: [any NativePlugin] = BuiltInPlugins.all
  ) {
    self.explicit = explicit
    self.grants = grants
    self.requireLock = requireLock
    self.environment = environment
    self.natives = natives
  }

  /// The plugins for `screen`, found and checked now.
  public func load(screen: String) -> PluginSet {
    PluginSet.load(
      explicit: explicit, screen: screen, environment: environment, hostAPI: PluginSet.hostAPI, grants: grants,
      requireLock: requireLock, natives: natives)
  }
}
