import SendingStateLua
import SendingStateTools

/// The preview's Rewind: the screen's recent moments, each one committed step with what caused
/// it, the state after it, its render tree and its picture (the laid-out tree the page draws).
///
/// A moment is taken when the screen opens, after every EVENT a page sends, after every
/// committed step nobody sent (an effect's result, a timer's actions, a transition that changed
/// the state), and when a restore, a reload or a recording opens the screen anew. Moments are
/// numbered from 0 and never renumbered, so a page can ask for one by its number.
///
/// Bounded: at most ``momentLimit`` moments within ``byteBudget`` bytes, as ``Moment/bytes``
/// counts them (the state's copy, its JSON, the tree's JSON and text, the texts), oldest
/// dropped first; the newest always stays. A moment's state JSON is cut like the panel's
/// (``PreviewHost/stateLimit``), its tree text at ``treeTextLimit``; its tree is bounded by
/// ``PreviewTree``.
///
/// ```swift
/// var timeline = PreviewTimeline()
/// timeline.append(moment)          // numbered
/// timeline.moment(3)               // or a refusal naming what the timeline holds
/// timeline.drop(after: 3)          // a restore of #3: the later moments go
/// ```
struct PreviewTimeline {
  /// What made a moment.
  enum Kind: String {
    /// The screen opened (the preview's start).
    case start
    /// An EVENT from a page (or a scroll that changed something).
    case event
    /// An effect's result or a timer's actions, committed as a step of its own.
    case effect
    /// A committed step without actions that changed the state (a named state's transition).
    case transition
    /// A past moment restored: the screen opened again with its state.
    case restore
    /// The script reloaded, or a recording opened the screen anew.
    case reopen
  }

  /// One moment.
  struct Moment {
    /// Its number.
    var id = 0
    var kind: Kind
    /// What caused it, as the log shows it (`tap plus`, `effect: tick`).
    var cause: String
    /// The screen's clock when it was taken.
    var time: Double
    /// The state, to restore (nil when it cannot be read as data).
    var state: LuaValue?
    /// The state as the panel shows it (JSON, cut at ``PreviewHost/stateLimit``).
    var stateJSON: String
    /// The step's changes (`count: 1 → 2`), made visible.
    var diff: [String]
    /// The laid-out tree as the page draws it.
    var treeJSON: String
    /// The render tree as text (as `run` prints it), cut at ``PreviewTimeline/treeTextLimit``.
    var treeText: String

    /// What keeping it costs, in bytes.
    var bytes: Int {
      (state?.estimatedBytes ?? 0) + stateJSON.utf8.count + treeJSON.utf8.count + treeText.utf8.count
        + cause.utf8.count + diff.reduce(0) { $0 + $1.utf8.count + 16 } + 128
    }
  }

  /// The most moments kept.
  static let momentLimit = 200
  /// The most bytes of moments kept (32 MiB); the newest moment stays even past it.
  static let byteBudget = 32 << 20
  /// The most bytes of a moment's render tree text.
  static let treeTextLimit = 256 << 10
  /// The most lines of a moment's changes kept.
  static let diffLimit = 100

  private var log = BoundedLog<Moment>(limit: momentLimit, byteBudget: byteBudget, cost: { $0.bytes })
  /// The number the next moment gets.
  private(set) var nextID = 0

  /// The moments kept, oldest first.
  var moments: [Moment] { log.entries }
  /// The newest moment.
  var last: Moment? { log.entries.last }
  /// The bytes the kept moments cost.
  var bytes: Int { log.bytes }

  /// Numbers `moment` and keeps it; returns its number.
  @discardableResult
  mutating func append(_ moment: Moment) -> Int {
    var numbered = moment
    numbered.id = nextID
    nextID += 1
    log.append(numbered)
    return numbered.id
  }

  /// A refusal for a page that named a moment the timeline does not hold.
  struct Missing: Error, CustomStringConvertible {
    var description: String
  }

  /// The moment numbered `id`.
  ///
  /// - Throws: ``Missing``, saying which moments the timeline holds and why others are gone.
  func moment(_ id: Int) throws(Missing) -> Moment {
    let kept = log.entries
    if let found = kept.first(where: { $0.id == id }) { return found }
    let held = kept.first.map { first in "it holds \(kept.count) moment(s), #\(first.id)…#\(kept.last?.id ?? first.id)" } ?? "it is empty"
    let reason =
      id >= nextID
      ? "there is no moment #\(id) yet"
      : "moment #\(id) is no longer in the timeline (a restore drops the moments after the one restored; past \(PreviewTimeline.momentLimit) moments or \(PreviewTimeline.byteBudget >> 20) MiB the oldest go)"
    throw Missing(description: "\(reason); \(held): pick one of those")
  }

  /// Drops the moments after `id` (a restore of it: the later timeline is gone).
  mutating func drop(after id: Int) {
    let kept = log.entries.filter { $0.id <= id }
    var fresh = BoundedLog<Moment>(limit: PreviewTimeline.momentLimit, byteBudget: PreviewTimeline.byteBudget, cost: { $0.bytes })
    fresh.append(contentsOf: kept)
    log = fresh
  }
}
