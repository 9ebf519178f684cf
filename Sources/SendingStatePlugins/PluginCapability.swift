/// What a plugin may do beyond computing: it lists these in its manifest, and gets only those
/// listed there and granted by the user.
public enum PluginCapability: Hashable, Sendable, CustomStringConvertible {
  /// HTTP(S) fetches, to these hosts only (`api.example.com`, or `*.example.com` for its
  /// subdomains).
  case net(hosts: [String])
  /// `store:after` timers.
  case timers
  /// Reading the wall clock (`os.time`, `os.date`).
  case clock
  /// A small key-value store kept between runs.
  case storage

  /// The capability's name in manifests and flags.
  public var name: String {
    switch self {
    case .net: "net"
    case .timers: "timers"
    case .clock: "clock"
    case .storage: "storage"
    }
  }

  /// Every capability name.
  public static let names = ["clock", "net", "storage", "timers"]

  /// `net (api.example.com, cdn.example.com)` or the bare name.
  public var description: String {
    if case .net(let hosts) = self { return "net (\(hosts.joined(separator: ", ")))" }
    return name
  }

  /// Whether `host` is one of the hosts a `net` capability names (`*.example.com` matches its
  /// subdomains, not `example.com` itself). Host names compare without case.
  public func allows(host: String) -> Bool {
    guard case .net(let hosts) = self else { return false }
    let host = host.lowercased()
    return hosts.contains { pattern in
      let pattern = pattern.lowercased()
      if pattern.hasPrefix("*.") { return host.hasSuffix(pattern.dropFirst()) && host.count > pattern.count - 1 }
      return host == pattern
    }
  }
}
