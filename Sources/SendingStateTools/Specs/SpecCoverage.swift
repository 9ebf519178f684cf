import Foundation
import SendingStateLua

/// Line coverage of a `sendingstate test --coverage` run (or `.busted`'s `coverage = true`): the
/// lines of screens, their modules and plugins' scripts (counted in each screen's runtime), and
/// of the project's modules the specs `require`, with the LCOV file and the summary made from them.
///
/// A file's lines are those that hold code: the lines with VM instructions in any of its
/// functions (Lua's own `activelines`, nested functions included), less each function's implicit
/// closing return. Comments, blank lines and a function's closing `end` are not lines; a line
/// that never ran counts 0. Spec files, busted, luassert and the host's own Lua (the kernel, the
/// sandbox's prelude, the spec host) are never counted.
///
/// ```swift
/// let report = SpecCoverage(files: [.init(path: "counter.lua", lines: [3: 1, 5: 0])])
/// report.lcov      // "TN:\nSF:counter.lua\nDA:3,1\nDA:5,0\nLF:2\nLH:1\nend_of_record\n"
/// report.summary   // a table: file, hits, missed, coverage, and the total
/// ```
package struct SpecCoverage: Equatable, Sendable {
  /// One file's counts.
  package struct File: Equatable, Sendable {
    /// The path as the report writes it: relative to the folder the run started in when the
    /// file is under it, else absolute (so `genhtml` finds it from that folder).
    package var path: String
    /// Each line that holds code, with the times it ran (0: never).
    package var lines: [Int: Int]

    /// Describes a file's counts.
    package init(path: String, lines: [Int: Int]) {
      self.path = path
      self.lines = lines
    }

    /// Lines that ran at least once.
    package var hit: Int { lines.values.filter { $0 > 0 }.count }
  }

  /// The files, sorted by path.
  package var files: [File]

  /// Where the run writes the LCOV file, relative to the folder it started in.
  package static let lcovPath = "coverage/lcov.info"

  /// The Lua chunk that returns `lines(text, name)`: the sorted lines of a file that hold code,
  /// or nil and the syntax error.
  static let linesSource = HostCode.text("spec/coverage.lua")

  /// A report of `files` (sorted by path).
  package init(files: [File]) {
    self.files = files.sorted { $0.path < $1.path }
  }

  /// The LCOV tracefile (`genhtml` renders it): per file `SF:`, one `DA:line,hits` per line that
  /// holds code, `LF:` (lines) and `LH:` (lines hit), then `end_of_record`.
  package var lcov: String {
    var text = ""
    for file in files {
      text += "TN:\nSF:\(file.path)\n"
      for line in file.lines.keys.sorted() { text += "DA:\(line),\(file.lines[line]!)\n" }
      text += "LF:\(file.lines.count)\nLH:\(file.hit)\nend_of_record\n"
    }
    return text
  }

  /// The summary printed after the results, as luacov's: per file its hits, missed lines and
  /// coverage, then the total.
  ///
  /// ```text
  /// Coverage (coverage/lcov.info)
  /// File                 Hits Missed Coverage
  /// counter.lua            12      2   85.71%
  /// Total                  12      2   85.71%
  /// ```
  package var summary: String {
    guard !files.isEmpty else {
      return "Coverage (\(Self.lcovPath)): no line of a screen, module or plugin ran\n"
    }
    let total = File(path: "Total", lines: [:])
    let hits = files.reduce(0) { $0 + $1.hit }
    let count = files.reduce(0) { $0 + $1.lines.count }
    let rows = files.map { ($0.path, $0.hit, $0.lines.count) } + [(total.path, hits, count)]
    let width = max(4, rows.map(\.0.count).max() ?? 0)
    func pad(_ text: String, _ size: Int, left: Bool) -> String {
      let space = String(repeating: " ", count: max(0, size - text.count))
      return left ? text + space : space + text
    }
    func percent(_ hit: Int, _ all: Int) -> String {
      all == 0 ? "100.00%" : String(format: "%.2f%%", Double(hit) * 100 / Double(all))
    }
    var text = "Coverage (\(Self.lcovPath))\n"
    text += pad("File", width, left: true) + "   Hits Missed Coverage\n"
    for (path, hit, all) in rows {
      text += pad(path, width, left: true) + " " + pad("\(hit)", 6, left: false) + " " + pad("\(all - hit)", 6, left: false)
        + " " + pad(percent(hit, all), 8, left: false) + "\n"
    }
    return text
  }

  /// Writes ``lcov`` to ``lcovPath`` under `folder`, making `coverage/` if needed.
  ///
  /// - Throws: ``ToolError/usage(_:)`` when it cannot be written.
  package func write(in folder: String) throws {
    let url = URL(fileURLWithPath: folder).appendingPathComponent(Self.lcovPath)
    do {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(lcov.utf8).write(to: url)
    } catch {
      throw ToolError.usage("--coverage: cannot write \(Self.lcovPath): \(error.localizedDescription)")
    }
  }
}

/// The counts of one run as they come in, by file (an absolute, standardized path), before the
/// report: which files count, and which lines are lines, are decided at the end.
struct CoverageCounts {
  /// Hits by file and line.
  private(set) var hits: [String: [Int: Int]] = [:]
  /// Files that a screen's runtime ran (screens, their modules, plugins): always reported.
  private(set) var screenFiles: Set<String> = []
  /// The folder the run started in.
  let folder: String

  init(folder: String) {
    self.folder = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
  }

  /// The absolute path of a chunk name (relative names are relative to ``folder``).
  func absolute(_ name: String) -> String {
    URL(fileURLWithPath: name, relativeTo: URL(fileURLWithPath: folder, isDirectory: true)).standardizedFileURL
      .resolvingSymlinksInPath().path
  }

  /// Adds the counts of a runtime; `fromScreen`: a screen's (every file of it counts).
  mutating func add(_ counts: [String: [Int: Int]], fromScreen: Bool) {
    for (name, lines) in counts {
      let path = absolute(name)
      hits[path, default: [:]].merge(lines, uniquingKeysWith: +)
      if fromScreen { screenFiles.insert(path) }
    }
  }

  /// Whether `path` counts: a screen's file, or a file of the project (under ``folder``) that
  /// is not a spec file.
  func counts(_ path: String, specFiles: Set<String>) -> Bool {
    if screenFiles.contains(path) { return true }
    return path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") && !specFiles.contains(path)
  }

  /// The path as the report writes it: relative to ``folder`` when under it.
  func reported(_ path: String) -> String {
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
  }

  /// The report: each file that counts and can be read and compiled, with its lines (from
  /// `lines(text, name)`) and their hits.
  func report(specFiles: [String], lines: (String, String) throws -> [Int]?) rethrows -> SpecCoverage {
    let specs = Set(specFiles.map(absolute))
    var files: [SpecCoverage.File] = []
    for (path, hit) in hits where counts(path, specFiles: specs) {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
        let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
        let codeLines = try lines(text, reported(path))
      else { continue }
      var counted: [Int: Int] = [:]
      for line in codeLines { counted[line] = hit[line] ?? 0 }
      files.append(SpecCoverage.File(path: reported(path), lines: counted))
    }
    return SpecCoverage(files: files)
  }
}
