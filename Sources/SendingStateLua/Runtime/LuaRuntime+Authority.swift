import CLua
import CLuaShim

/// Authority: who may do what beyond computing.
///
/// Every chunk of script code belongs to an **owner** — `"the screen"`, `"plugin 'analytics'"`
/// — given by ``LuaRuntime/Configuration/fileOwners`` (by file) or
/// ``LuaRuntime/Configuration/defaultOwner``; a chunk a script loads with `load` belongs to the
/// owner of the code that loaded it. A **right** is checked against the owner of the code that
/// asks for it: the nearest frame of script code below the function that was called (a C
/// function, so no tail call can hide the caller). So a store, an `os` table, the `clock`
/// module or a callback handed to code of another owner carries no rights with it: the code
/// that calls it asks, with its own.
extension LuaRuntime {
  /// What the code of one owner may do beyond computing.
  public struct Rights: Sendable, Equatable {
    /// The wall clock: `os.time`, `os.date`, the clock-reading functions of
    /// ``Configuration/clockGatedModules``.
    public var clock: Bool
    /// `store:after` (screens).
    public var timers: Bool
    /// The hosts `store:fetch` may reach (`api.example.com`, `*.example.com`, `*`, each with an
    /// optional `:port`); `nil`: no fetches.
    public var net: [String]?
    /// `store:run`: the host tasks the app registered.
    public var tasks: Bool
    /// Requiring the screen's own modules (the files under the script roots); without it,
    /// only host modules and the modules plugins name.
    public var screenFiles: Bool

    /// Rights (none unless given).
    public init(clock: Bool = false, timers: Bool = false, net: [String]? = nil, tasks: Bool = false, screenFiles: Bool = false) {
      self.clock = clock
      self.timers = timers
      self.net = net
      self.tasks = tasks
      self.screenFiles = screenFiles
    }

    /// Every right, any host.
    public static let all = Rights(clock: true, timers: true, net: ["*"], tasks: true, screenFiles: true)
  }

  /// Gives the code of `owner` these rights (replacing what it had); code of an owner never
  /// granted anything has no rights. Takes effect at once, for code already loaded too.
  public func grant(_ granted: Rights, to owner: String) {
    rights[owner] = granted
    guard configuration.mode == .sandboxed else { return }
    stack.push(reference: rightsTable)
    stack.push(owner)
    lua_createtable(L, 0, 5)
    for (key, value) in [("clock", granted.clock), ("timers", granted.timers), ("tasks", granted.tasks), ("screenFiles", granted.screenFiles)] {
      stack.push(key)
      stack.push(value)
      lua_rawset(L, -3)
    }
    if let hosts = granted.net {
      stack.push("net")
      lua_createtable(L, Int32(clamping: hosts.count), 0)
      for (index, host) in hosts.enumerated() {
        stack.push(host)
        lua_rawseti(L, -2, lua_Integer(index + 1))
      }
      lua_rawset(L, -3)
    }
    lua_rawset(L, -3)
    stack.pop()
  }

  /// The table of rights by owner, for the kernel (trusted host code only).
  func rightsReference() -> LuaRef {
    stack.push(reference: rightsTable)
    return LuaRef(runtime: self, reference: stack.ref())
  }

  /// The rights of `owner` (none when it was never granted any).
  public func rights(of owner: String) -> Rights {
    rights[owner] ?? Rights()
  }

  /// Who asks, from inside a Swift function Lua called: the owner of the nearest script frame
  /// below it (`nil` when it cannot be told — a tail call into host code, a coroutine started
  /// on a host function — and ``Asker/host`` when no script code is on the stack).
  func asker() -> Asker {
    let top = stack.top
    defer { lua_settop(L, top) }
    _ = sslua_push_asker(L, 1)
    if let owner = stack.string(at: -1) { return .owner(owner) }
    return lua_toboolean(L, -1) != 0 ? .host : .unknown
  }

  /// Who asks for a right (see ``asker()``).
  enum Asker: Equatable {
    /// No script code is on the stack: the host itself.
    case host
    /// Script code of this owner.
    case owner(String)
    /// Script code whose owner cannot be told: it has no rights.
    case unknown
  }

  /// Registers the owner of the script chunk named `chunkName` (without `@`), before it runs.
  func registerOwner(ofChunk chunkName: String) {
    guard configuration.mode == .sandboxed else { return }
    sslua_set_owner(L, "@" + chunkName, configuration.fileOwners[chunkName] ?? configuration.defaultOwner)
  }
}
