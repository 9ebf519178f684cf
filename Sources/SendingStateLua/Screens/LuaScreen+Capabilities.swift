extension LuaScreen {
  /// What a screen's or a plugin's code may do beyond computing: start timers, fetch from
  /// some hosts, read the wall clock. The host enforces them: a screen's `handle` and a
  /// plugin's middleware start effects through the store, and each script file's environment
  /// has the wall clock only when its code was granted it.
  ///
  /// ```swift
  /// var options = LuaScreen.Options()
  /// options.capabilities = .init(timers: true, net: ["api.example.com"])   // no clock
  /// options.pluginCapabilities["analytics"] = .init(net: ["collect.example.com"])
  /// ```
  public struct Capabilities: Sendable, Equatable, CustomStringConvertible {
    /// `store:after`.
    public var timers: Bool
    /// The hosts `store:fetch` may reach (`api.example.com`, `*.example.com` for its
    /// subdomains, `*` for any); `nil`: no fetches.
    public var net: [String]?
    /// `os.time` and `os.date`.
    public var clock: Bool

    /// Creates capabilities (none unless given).
    public init(timers: Bool = false, net: [String]? = nil, clock: Bool = false) {
      self.timers = timers
      self.net = net
      self.clock = clock
    }

    /// Everything: timers, any host, the clock.
    public static let unrestricted = Capabilities(timers: true, net: ["*"], clock: true)

    /// `timers, net (api.example.com), clock`, or `none`.
    public var description: String {
      var parts: [String] = []
      if timers { parts.append("timers") }
      if let net { parts.append("net (\(net.joined(separator: ", ")))") }
      if clock { parts.append("clock") }
      return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// A pattern's host part and its port, if it names one (`[::1]:80` → `[::1]`, 80).
    static func split(_ pattern: String) -> (name: String, port: Int?) {
      guard let colon = pattern.lastIndex(of: ":"), !pattern[colon...].contains("]"),
        !(pattern.hasPrefix("[") && !pattern[..<colon].contains("]")),
        let port = Int(pattern[pattern.index(after: colon)...])
      else { return (pattern, nil) }
      return (String(pattern[..<colon]), port)
    }

    /// What `wanted` asks for beyond these, in words (`["timers", "net (evil.com)"]`); empty
    /// when these cover it.
    public func missing(for wanted: Capabilities) -> [String] {
      var missing: [String] = []
      if wanted.timers, !timers { missing.append("timers") }
      if let hosts = wanted.net {
        let beyond = hosts.filter { host in !(net ?? []).contains { Self.pattern($0, covers: host) } }
        if !beyond.isEmpty { missing.append("net (\(beyond.joined(separator: ", ")))") }
      }
      if wanted.clock, !clock { missing.append("clock") }
      return missing
    }

    /// Whether every host `wanted` (a host or a `*.` pattern, with an optional port) matches is
    /// matched by `pattern` too: `*` covers all; `*.example.com` covers `api.example.com` and
    /// `*.cdn.example.com`, not `example.com`; a pattern without a port covers every port, one
    /// with a port only that port.
    public static func pattern(_ pattern: String, covers wanted: String) -> Bool {
      let (grant, grantPort) = split(pattern.lowercased())
      let (want, wantPort) = split(wanted.lowercased())
      if let grantPort, grantPort != wantPort { return false }
      if grant == "*" || grant == want { return true }
      guard grant.hasPrefix("*.") else { return false }
      let suffix = grant.dropFirst()  // ".example.com"
      if want.hasPrefix("*.") { return want.dropFirst().hasSuffix(suffix) }
      return want.hasSuffix(suffix) && want.count > suffix.count
    }

    /// As the kernel reads them: `{ timers = bool, clock = bool, net = { hosts… } | nil }`.
    var luaValue: LuaValue {
      var value: LuaValue = ["timers": .boolean(timers), "clock": .boolean(clock)]
      if let net { value["net"] = .table(LuaTable(sequence: net.map(LuaValue.string))) }
      return value
    }
  }
}

extension LuaScreen.Capabilities {
  /// Reads a `capabilities` declaration — `{ "timers", "clock", net = { "api.example.com" } }`
  /// — as screens and plugin manifests write it.
  ///
  /// - Throws: a message saying what is wrong and how to write it.
  public init(declaration: LuaValue) throws(LuaScreen.CapabilityDeclarationError) {
    self.init()
    guard let table = declaration.tableValue else {
      throw .init("capabilities must be a table like { \"timers\", net = { \"api.example.com\" } }")
    }
    for item in table.sequence {
      switch item.stringValue {
      case "timers": timers = true
      case "clock": clock = true
      case "net": throw .init("net lists the hosts it may reach: net = { \"api.example.com\" }")
      default:
        throw .init("capability \(item.stringValue.map { "\"\($0)\"" } ?? "a \(item.typeName)") is unknown (capabilities: clock, net, timers)")
      }
    }
    for (key, value) in table.fields.sorted(by: { $0.key < $1.key }) {
      guard key == "net" else { throw .init("capability '\(key)' is unknown (capabilities: clock, net, timers)") }
      guard let hosts = value.tableValue, hosts.fields.isEmpty, !hosts.sequence.isEmpty,
        hosts.sequence.allSatisfy({ $0.stringValue.map(Self.isHostPattern) ?? false })
      else {
        throw .init("net must list the hosts it may reach, like net = { \"api.example.com\", \"*.cdn.example.com\" }")
      }
      net = hosts.sequence.compactMap(\.stringValue)
    }
  }

  /// A host a net capability names: `api.example.com` or `*.example.com` (letters, digits, `-`
  /// and dots), `*`, an IPv4 address, or an IPv6 address in brackets (`[::1]`); each with an
  /// optional port (`127.0.0.1:8080`, 1–65535). No scheme, no path: a grant covers http and https.
  public static func isHostPattern(_ text: String) -> Bool {
    let (name, port) = split(text)
    if let port, !(1...65535).contains(port) { return false }
    if text.hasSuffix(":") { return false }
    if name == "*" { return true }
    if name.hasPrefix("[") {
      let inside = name.dropFirst().dropLast()
      return name.hasSuffix("]") && !inside.isEmpty && inside.count <= 45
        && inside.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0) || $0 == ":" || $0 == "." }
    }
    let host = name.hasPrefix("*.") ? String(name.dropFirst(2)) : name
    let labels = host.split(separator: ".", omittingEmptySubsequences: false)
    return !labels.isEmpty && host.utf8.count <= 253 && labels.allSatisfy { label in
      !label.isEmpty && label.count <= 63 && label.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
      }
    }
  }
}

extension LuaScreen {
  /// A `capabilities` declaration that cannot be read: what is wrong, and how to write it.
  public struct CapabilityDeclarationError: Error, Sendable, Equatable {
    /// The message.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
  }
}

extension LuaScreen.Options {
  /// Who the code of each plugin file belongs to (`plugin 'rating'`): components and unit
  /// renderers by their plugin, middleware by theirs, modules by the name they are required
  /// under (`analytics.events` is plugin `analytics`'s).
  var fileOwners: [String: String] {
    var owners: [String: String] = [:]
    for script in Array(components.values) + Array(units.values) {
      if let plugin = script.plugin { owners[script.file] = "plugin '\(plugin)'" }
    }
    for middleware in middleware { owners[middleware.file] = "plugin '\(middleware.plugin)'" }
    for (name, file) in modules {
      if let dot = name.firstIndex(of: ".") { owners[file] = "plugin '\(name[..<dot])'" }
    }
    return owners
  }
}
