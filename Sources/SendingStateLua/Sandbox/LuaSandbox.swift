import CLua
import CLuaShim
import Foundation

/// The sandbox's rules and its environment factory.
///
/// Each script runs in its own environment built from an allow-list:
/// - base functions without `dofile`, `loadfile`, `load` with a caller-chosen environment or a
///   binary mode, and `collectgarbage` beyond `"count"`;
/// - copies of `string` (no `dump`), `table`, `math`, `utf8`, `coroutine` (new coroutines inherit
///   the limits);
/// - `os.clock`, `os.time`, `os.date` only;
/// - `print`, which writes to ``LuaRuntime/output``;
/// - `require`, which finds Lua modules only under the runtime's script roots.
///
/// Read-only objects (a metatable with `__readonly`: frozen state, views) keep their data to
/// themselves: `pairs` never hands it out and `rawset` refuses them.
///
/// Everything that could run past the limits is bounded: `setmetatable` refuses `__gc` (Lua runs
/// finalizers with hooks off, so one could loop for ever, even at close), `xpcall`'s message
/// handler stops at a limit, and the functions that loop in C (the pattern functions,
/// `string.rep`/`byte`, the `table` functions, `utf8.len`/`offset`/`codepoint`, `load`) charge
/// their work to the episode's budget and deadline.
///
/// The shared string metatable is protected, so scripts cannot reach or change the string
/// methods other scripts use (its methods are the bounded ones). Touching something forbidden
/// raises an error whose message starts with ``violationMarker``, reported as
/// ``ScriptError/Kind/sandboxViolation``:
///
/// ```text
/// main.lua:3: sandbox violation: 'io' is not available to scripts
/// ```
enum LuaSandbox {
  /// The prefix of every sandbox-violation message.
  static let violationMarker = "sandbox violation: "

  /// Builds `newenv()`; receives the real globals, the host globals, the module cache and the
  /// host primitives.
  static let prelude = HostCode.text("sandbox/prelude.lua")
}

extension LuaRuntime {
  func installEnvironmentFactory() throws(ScriptError) {
    lua_createtable(L, 0, 0)
    hostGlobals = stack.ref()
    lua_createtable(L, 0, 0)
    loadedModules = stack.ref()
    // A sandbox's coroutines all start and stop through the bounded library, which tells the
    // deadline's watch which thread runs; trusted code may use Lua's own, so its deadline is
    // read by the count hook.
    sslua_set_watched(L, configuration.mode == .sandboxed ? 1 : 0)
    guard configuration.mode == .sandboxed else {
      // Trusted: scripts share the real globals; preloaded modules go to package.loaded.
      stack.push(reference: loadedModules)
      sslua_pushglobaltable(L)
      stack.push("package")
      lua_rawget(L, -2)
      stack.push("loaded")
      lua_rawget(L, -2)
      lua_rotate(L, -4, 1)  // loaded table below the rest
      sslua_pop(L, 3)
      stack.unref(loadedModules)
      loadedModules = stack.ref()
      return
    }
    let base = stack.top
    defer { lua_settop(L, base) }
    // Compiled once per process, like the kernel (parsing it was a tenth of opening a screen).
    let status = HostChunkCache.load(LuaSandbox.prelude, chunkName: "=sandbox", into: L)
    guard status == LUA_OK else { throw error(status: status, kind: .syntax) }
    sslua_pushglobaltable(L)
    stack.push(reference: hostGlobals)
    stack.push(reference: loadedModules)
    lua_createtable(L, 0, 4)
    stack.push("marker")
    stack.push(LuaSandbox.violationMarker)
    lua_rawset(L, -3)
    stack.push("write")
    pushFunction(named: "print") { call in
      let text = try call.string(1)
      guard sslua_charge_output(call.runtime.L, text.utf8.count) != 0 else {
        let cap = call.runtime.limits.maxOutputBytes ?? 0
        throw ScriptError(
          kind: .tooLarge,
          message: "more than \(cap) bytes printed in one event; print less, or raise maxOutputBytes")
      }
      call.runtime.output(text)
      return 0
    }
    lua_rawset(L, -3)
    stack.push("find")
    pushFunction(named: "require") { call in
      try call.runtime.findModule(call)
    }
    lua_rawset(L, -3)
    stack.push("bounded")
    sslua_pushcfunction(L, sslua_open_bounded)
    try protectedCall(arguments: 0, results: 1, context: "building the bounded library")
    lua_rawset(L, -3)
    stack.push("rights")
    stack.push(reference: rightsTable)
    lua_rawset(L, -3)
    stack.push("gate")
    sslua_pushcfunction(L, sslua_gate_function)
    lua_rawset(L, -3)
    stack.push("setOwner")
    sslua_pushcfunction(L, sslua_set_owner_function)
    lua_rawset(L, -3)
    stack.push("seed1")
    stack.push(configuration.randomSeed ?? Int64.random(in: .min ... .max))
    lua_rawset(L, -3)
    stack.push("seed2")
    stack.push(configuration.randomSeed == nil ? Int64.random(in: .min ... .max) : 0)
    lua_rawset(L, -3)
    stack.push("requirable")
    lua_createtable(L, 0, 0)
    lua_pushvalue(L, -1)
    requirable = stack.ref()
    for name in configuration.modules.keys {
      stack.push(name)
      stack.push(true)
      lua_rawset(L, -3)
    }
    lua_rawset(L, -3)
    stack.push("clockGated")
    lua_createtable(L, 0, 0)
    for (module, functions) in configuration.clockGatedModules {
      stack.push(module)
      lua_createtable(L, 0, 0)
      for function in functions {
        stack.push(function)
        stack.push(true)
        lua_rawset(L, -3)
      }
      lua_rawset(L, -3)
    }
    lua_rawset(L, -3)
    // The host's own code, bounded: not under the script's limits (a tight time limit must
    // not fail the runtime's construction on a busy machine).
    try protectedCall(arguments: 4, results: 1, context: "building the sandbox", critical: true)
    environmentFactory = stack.ref()
  }

  /// Grants (`true`) or withdraws the wall clock (`os.time`, `os.date`, `require "clock"`)
  /// from the code of `who` (see ``grant(_:to:)``). Takes effect at once, for code already
  /// loaded too.
  public func setClock(_ allowed: Bool, for who: String) {
    var current = rights[who] ?? Rights()
    current.clock = allowed
    grant(current, to: who)
  }

  /// A fresh environment: a sandbox (sandboxed mode) or the real globals (trusted mode).
  ///
  /// Share one between chunks to let them see each other's globals.
  public func newEnvironment() throws(ScriptError) -> LuaRef {
    try pushEnvironment(nil)
    return LuaRef(runtime: self, reference: stack.ref())
  }

  func pushEnvironment(_ environment: LuaRef?) throws(ScriptError) {
    if let environment {
      stack.push(reference: environment.reference)
    } else if configuration.mode == .trusted {
      sslua_pushglobaltable(L)
    } else {
      stack.push(reference: environmentFactory)
      try protectedCall(arguments: 0, results: 1, context: "creating a sandbox")
    }
  }

  /// Sets upvalue 1 (`_ENV`) of the chunk on top (a fresh sandbox unless given).
  func setEnvironment(ofFunctionOnTop environment: LuaRef?) throws(ScriptError) {
    try pushEnvironment(environment)
    if lua_setupvalue(L, -2, 1) == nil { stack.pop() }
  }

  /// The plugin folder among `known` (every plugin folder found for the screen: loaded or left
  /// out) that `file` lies in: a plugin's files never load through the script roots, with the
  /// screen's rights and unchecked by any lockfile.
  static func pluginFolder(containing file: String, below root: String, known: [String]) -> String? {
    known.first { folder in
      let path = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
      return file.hasPrefix(path + "/")
    }
  }

  /// `find(name)` for `require`: pushes the loaded chunk and its path, or nil, a message and
  /// the error level for the Lua side to raise.
  func findModule(_ call: LuaCall) throws -> Int {
    let name = try call.string(1)
    func fail(_ message: String, level: Int64 = 2, kind: ScriptError.Kind = .runtime) -> Int {
      lastCallbackError = ScriptError(kind: kind, message: message)
      call.pushNil()
      call.push(message)
      call.push(level)
      return 3
    }
    let allowed = name.unicodeScalars.allSatisfy {
      CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "." || $0 == "-"
    }
    guard allowed, !name.isEmpty, !name.hasPrefix("."), !name.hasSuffix("."), !name.contains("..") else {
      return fail(
        LuaSandbox.violationMarker + "module name '\(name)' is not allowed (use dotted names like 'ui.card')",
        kind: .sandboxViolation)
    }
    if let file = configuration.modules[name] {
      // A module a plugin provides: exactly this file (or the text of it that was checked).
      do {
        if let source = configuration.moduleSources[name] {
          call.push(try load(source, chunkName: file))
        } else {
          call.push(try loadFile(file, root: root(ofPluginFile: file)))
        }
        call.push(file)
        return 2
      } catch {
        return fail(error.description, level: 0, kind: error.kind)
      }
    }
    let relative = name.replacingOccurrences(of: ".", with: "/")
    var searched: [String] = []
    for root in scriptRoots {
      let rootURL = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath()
      for candidate in [relative + ".lua", relative + "/init.lua"] {
        let path = (root as NSString).appendingPathComponent(candidate)
        searched.append(path)
        // (A link counts as there even when it leads nowhere: the loader says what is wrong.)
        guard FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
        else { continue }
        let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        if let plugin = Self.pluginFolder(containing: resolved.path, below: rootURL.path, known: configuration.pluginFolders) {
          return fail(
            LuaSandbox.violationMarker
              + "module '\(name)' is a file of the plugin in \(plugin); require a plugin's modules as <plugin>.<module> (only those its manifest names)",
            kind: .sandboxViolation)
        }
        do {
          // The one loader: inside the root once links are followed, a regular text file.
          let chunk = try loadFile(path, root: root)
          call.push(chunk)
          call.push(path)
          return 2
        } catch {
          if error.line == nil {
            // A file the loader refused: the error belongs at the require.
            let marker = error.kind == .sandboxViolation ? LuaSandbox.violationMarker : ""
            return fail(marker + "module '\(name)': " + error.message, kind: error.kind)
          }
          return fail(error.description, level: 0, kind: error.kind)
        }
      }
    }
    if scriptRoots.isEmpty {
      return fail("module '\(name)' not found: no script roots are declared (see LuaRuntime.Configuration.scriptRoots)")
    }
    return fail("module '\(name)' not found; searched:\n\t" + searched.joined(separator: "\n\t"))
  }
}
