import CLuaShim

/// A profile of Lua code by function, for the benchmarks (`bench.sh --profile-lua CASE`): while
/// on, each firing of the limits' count hook charges the VM instructions since the last one to
/// the running Lua function. One process-wide table; code that runs with hooks off (the host's
/// critical sections) is not seen.
package enum LuaProfiler {
  /// Clears the table and starts counting.
  package static func start() { sslua_profile_start() }

  /// Stops counting.
  package static func stop() { sslua_profile_stop() }

  /// The functions seen, heaviest first: (VM instructions, "source:first line").
  package static func report() -> [(instructions: Int, function: String)] {
    var buffer = [CChar](repeating: 0, count: 1 << 16)
    _ = buffer.withUnsafeMutableBufferPointer { sslua_profile_report($0.baseAddress, $0.count) }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: "\t", maxSplits: 1)
      guard parts.count == 2, let count = Int(parts[0]) else { return nil }
      return (count, String(parts[1]))
    }
  }
}
