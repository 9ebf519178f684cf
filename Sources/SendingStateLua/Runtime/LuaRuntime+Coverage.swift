import CLuaShim

extension LuaRuntime {
  /// Starts counting which lines of script files run (`sendingstate test --coverage`): from now
  /// on the limits' hook also takes Lua's line events, in every thread of this state, and adds
  /// one to each (file, line). Files are the chunks named after a path (screens, modules,
  /// plugins' scripts, files a trusted runtime `require`s); the host's own code (the kernel,
  /// the prelude) is never counted. Off until called, so a runtime that never calls it runs no
  /// line hook at all; the instruction budget and the deadline work the same either way.
  ///
  /// - Throws: ``ScriptError`` of kind ``ScriptError/Kind/memory`` when the counts cannot be made.
  package func startCoverage() throws(ScriptError) {
    guard sslua_coverage_start(L) != 0 else {
      throw ScriptError(kind: .memory, message: "cannot start coverage: out of memory")
    }
  }

  /// Whether ``startCoverage()`` was called.
  package var isCoverageOn: Bool { sslua_coverage_on(L) != 0 }

  /// The line counts so far, by file (its chunk name, as loaded) and line: only lines that ran
  /// at least once. Empty when coverage is off.
  package var coverageHits: [String: [Int: Int]] {
    var files: [String: [Int: Int]] = [:]
    for index in 0..<sslua_coverage_file_count(L) {
      guard let name = sslua_coverage_file_name(L, index) else { continue }
      var size: Int32 = 0
      guard let hits = sslua_coverage_file_hits(L, index, &size) else { continue }
      var lines: [Int: Int] = [:]
      for line in 1..<max(1, Int(size)) where hits[line] > 0 { lines[line] = Int(hits[line]) }
      files[String(cString: name), default: [:]].merge(lines, uniquingKeysWith: +)
    }
    return files
  }
}
