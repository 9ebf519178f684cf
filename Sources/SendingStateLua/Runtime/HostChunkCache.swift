import CLua
import CLuaShim
import Foundation
import Synchronization

/// The host's own Lua chunks (the screen kernel, the sandbox), compiled once per process.
///
/// Every screen opens a fresh Lua state, and compiling the kernel's source took most of the
/// time of opening one (perf on the event-stream fuzzer: `lua_load` was 43% of all time). The
/// first load of a host chunk compiles its text and keeps `lua_dump`'s bytecode; every load
/// (the first too, so all behave alike) takes the bytecode (`lua_load` in mode "b"), which
/// skips the parser.
///
/// The screen kernel's chunks (`=kernel.…`) are stripped of debug information (line numbers,
/// local and upvalue names) unless ``withDebugInfo`` is set: every open screen holds their
/// prototypes, 166 KiB of its Lua heap with it and 124 KiB without. A script loses nothing: its
/// chunks are text, and an error the kernel raises names the script's line (its `where()`, and
/// the message handler, which takes the stripped position "?:-1: " for a host one). The other
/// host chunks (the sandbox, whose library wrappers a script's bad argument reaches; the spec
/// host; invariants) keep theirs, so their messages keep function names and lines.
///
/// Safety: binary chunks are loaded only from bytes this cache made from the host's own source
/// text, in this process, and only when the text asked for is byte for byte the text compiled; scripts, plugins and files are always loaded as
/// text (`mode "t"`), so no untrusted bytecode is ever loaded.
package enum HostChunkCache {
  /// By chunk name: the texts compiled under it, whether stripped, and their bytecode. (Keyed
  /// by name, not by text: hashing a String normalizes it, which cost 9% of a fuzz run; the
  /// text is compared byte by byte instead.)
  private static let compiled = Mutex<[String: [(source: String, stripped: Bool, bytes: [UInt8])]]>([:])
  /// How many chunks the cache keeps at most (the host has a handful; a Swift caller loading
  /// many "=" chunks of its own gets the text path for the rest).
  private static let capacity = 32

  /// Compiles host chunks from their text every time (for the benchmark that measures what
  /// the cache saves).
  package static let bypass = Atomic<Bool>(false)

  /// The kernel's chunks loaded from now on keep their debug information, so tracebacks name
  /// its lines (`--verbose`) and the Lua profiler its functions; each open screen's heap pays
  /// ~42 KiB for it.
  package static let withDebugInfo = Atomic<Bool>(false)

  /// Whether the chunk named `chunkName` is loaded without its debug information.
  package static func strips(_ chunkName: String) -> Bool {
    chunkName.hasPrefix("=kernel.") && !withDebugInfo.load(ordering: .relaxed)
  }

  /// Loads the host chunk `source` onto the stack of `L`, as `lua_load` would; returns its status.
  static func load(_ source: String, chunkName: String, into L: OpaquePointer) -> Int32 {
    // Positions in it are the host's, never a script's: errors raised there blame the script
    // frame below instead (the message handler asks).
    sslua_note_host_chunk(L, String(chunkName.dropFirst(chunkName.hasPrefix("=") ? 1 : 0)))
    if bypass.load(ordering: .relaxed) {
      return LuaRuntime.loadText(source, chunkName: chunkName, into: L)
    }
    let stripped = strips(chunkName)
    func loadBinary(_ bytes: [UInt8]) -> Int32 {
      bytes.withUnsafeBufferPointer { buffer in
        chunkName.withCString { name in
          sslua_loadhostbinary(L, buffer.baseAddress, buffer.count, name)
        }
      }
    }
    if let entry = compiled.withLock({ $0[chunkName] })?.first(where: { $0.stripped == stripped && sameBytes($0.source, source) }) {
      return loadBinary(entry.bytes)
    }
    let status = LuaRuntime.loadText(source, chunkName: chunkName, into: L)
    guard status == LUA_OK else { return status }
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    guard sslua_dump_top(L, stripped ? 1 : 0, &out, &size) == 0, let out else { return status }  // (the text's function stays)
    let bytes = Array(UnsafeBufferPointer(start: out, count: size))
    free(out)
    compiled.withLock { table in
      guard table.values.reduce(0, { $0 + $1.count }) < capacity,
        table[chunkName]?.contains(where: { $0.stripped == stripped && sameBytes($0.source, source) }) != true
      else { return }
      table[chunkName, default: []].append((source, stripped, bytes))
    }
    lua_settop(L, -2)  // the function compiled from text, for the one from its bytecode
    return loadBinary(bytes)
  }

  /// Whether `source` is kept compiled under `chunkName` (for tests).
  package static func isCached(_ source: String, chunkName: String) -> Bool {
    compiled.withLock { $0[chunkName] }?.contains { sameBytes($0.source, source) } ?? false
  }

  /// Whether two texts are the same bytes (one `memcmp`, no Unicode normalization).
  private static func sameBytes(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { x in
      b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
    }
  }
}
