import Foundation
import SendingStateLua
import Testing

/// The items the host still fails, and how they are run.
///
/// Each entry is a product bug (in code this corpus may not change), kept visible: its item runs
/// under `withKnownIssue`, so the suite stays green while the bug is there and fails loudly once
/// it is fixed (then remove the line).
enum HostileKnownFailures {
  /// KNOWN FAILURES: item → what goes wrong (one line).
  static let inProcess: [String: String] = [:]

  /// Items that crash or hang the whole process: they cannot run in the test process, so
  /// ``HostileProcessTests`` runs them through the `sendingstate` CLI in a child process and
  /// checks that they still do. Each is in ``inProcess`` too, with its reason.
  static let childProcessOnly: [String: HostileProcessTests.Outcome] = [:]
}

/// The hostile corpus, run item by item in this process: for each, the host must hold (see
/// ``HostileRunner``), unless the item is a known failure, in which case the attack must still
/// succeed (`withKnownIssue`, not intermittent).
// NB: serialized: many items keep a core busy until their deadline, and on Linux the main actor
// shares the cooperative pool with them.
@Suite("Hostile corpus", .serialized)
struct HostileCorpusTests {
  static var inProcessItems: [HostileItem] {
    HostileCorpus.items.filter { HostileKnownFailures.childProcessOnly[$0.relativePath] == nil }
  }

  @Test("every class has items, every folder is a class, every declaration is readable")
  func shape() throws {
    let items = HostileCorpus.items
    #expect(items.count >= 100, "only \(items.count) items")
    for category in HostileCorpus.classes {
      let count = items.filter { $0.category == category }.count
      #expect(count >= 5, "class \(category) has \(count) items")
    }
    let folders = try FileManager.default.contentsOfDirectory(atPath: HostileCorpus.folder).filter {
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: (HostileCorpus.folder as NSString).appendingPathComponent($0), isDirectory: &isFolder)
        && isFolder.boolValue
    }
    #expect(Set(folders) == Set(HostileCorpus.classes + ["hosts"]), "folders \(folders.sorted()) are not the classes")
    #expect(HostileCorpus.malformed.isEmpty, "\(HostileCorpus.malformed)")
    // Every .expect sidecar has its .json item (a lone sidecar would be skipped silently).
    for category in HostileCorpus.classes {
      let names = try FileManager.default.contentsOfDirectory(
        atPath: (HostileCorpus.folder as NSString).appendingPathComponent(category))
      for name in names where name.hasSuffix(".expect") {
        #expect(names.contains(String(name.dropLast(7)) + ".json"), "\(category)/\(name) has no .json item")
      }
    }
  }

  @Test("every known failure names an item of the corpus")
  func knownFailuresExist() {
    let paths = Set(HostileCorpus.items.map(\.relativePath))
    for path in HostileKnownFailures.inProcess.keys.sorted() {
      #expect(paths.contains(path), "\(path) is not in the corpus")
    }
    for path in HostileKnownFailures.childProcessOnly.keys.sorted() {
      #expect(HostileKnownFailures.inProcess[path] != nil, "\(path) runs in a child process but is not a known failure")
    }
  }

  /// The items a budget stops, for the default limits, which have none.
  static var budgetItems: [HostileItem] {
    inProcessItems.filter { $0.expect == ScriptError.Kind.budgetExceeded.rawValue }.map { $0.underDeadlineOnly() }
  }

  @Test("each item a budget stops also ends under the deadline alone (the default limits)", arguments: budgetItems)
  @MainActor
  func deadlineOnly(_ item: HostileItem) async {
    let problems = await HostileRunner(item: item).run()
    #expect(problems.isEmpty, "\(item.relativePath) without a budget (\(item.summary)):\n- \(problems.joined(separator: "\n- "))")
  }

  @Test("each item: the host holds, or the attack is a known failure", arguments: inProcessItems)
  @MainActor
  func item(_ item: HostileItem) async {
    let problems = await HostileRunner(item: item).run()
    let report = "\(item.relativePath) (\(item.summary)):\n- \(problems.joined(separator: "\n- "))"
    if let known = HostileKnownFailures.inProcess[item.relativePath] {
      withKnownIssue("KNOWN FAILURE (fixed? remove it from HostileKnownFailures): \(known)") {
        #expect(problems.isEmpty, "\(report)")
      }
    } else {
      #expect(problems.isEmpty, "\(report)")
    }
  }
}
