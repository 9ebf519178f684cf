/// One thing a screen waits for, as a list of what is pending shows it (the preview's Rewind
/// panel, the REPL's `pending`, a spec's `screen:pending_effects()`).
///
/// An entry says the effect's number and id, what the script started (`after`, `fetch`,
/// `task`), whether it waits on the screen's clock, and when it is due. A debounced effect
/// is a timer whose due time is its debounce's end (a newer effect under its id replaces it),
/// shown with its debounce; a throttle window is its own entry, with its length when an effect
/// waits for its end.
///
/// ```swift
/// for entry in screen.pendingList { print(entry.summary(now: screen.clockNow)) }
/// // #3 'search' fetch, debounce 0.300 s: due at 0.300 (in 0.300 s)
/// ```
package struct PendingEffect: Sendable, Equatable {
  /// What waits.
  package enum Kind: String, Sendable, Equatable, CaseIterable {
    /// An effect waiting on the screen's clock: a `store:after` timer, a debounce, a delayed
    /// fake's answer.
    case timer
    /// An effect under way that does not wait on the screen's clock (a fetch on the network, a
    /// host task): it finishes when it does.
    case running
    /// A throttle window: the next effect under its id waits for its end (or is dropped).
    case throttle
    /// A named state's transition: its end is due.
    case transition
  }

  /// The engine's number for the effect (`#3`); a transition's is the kernel's token; 0 for a
  /// throttle window.
  package var number: Int
  /// The id the script gave (`{ id = "search" }`), if any.
  package var id: String?
  /// What waits.
  package var kind: Kind
  /// When it is due, on the screen's clock (nil: not on the clock).
  package var due: Double?
  /// A throttle window's length in seconds, when an effect waits for its end.
  package var window: Double?
  /// For a throttle window with an effect waiting for its end: that effect's kind (`after`,
  /// `fetch`, `task`).
  package var waiting: String?
  /// For an effect: what the script started (`after`, `fetch`, `task`).
  package var effect: String?
  /// For an effect: the debounce it asked for, in seconds (a newer one under its id replaces it
  /// until then).
  package var debounce: Double?

  /// Creates an entry.
  package init(number: Int, id: String?, kind: Kind, due: Double?, window: Double? = nil, waiting: String? = nil) {
    self.number = number
    self.id = id
    self.kind = kind
    self.due = due
    self.window = window
    self.waiting = waiting
  }

  /// The entry in one line, with its due time relative to `now` (both less `origin`):
  /// `#3 'search' fetch, debounce 0.300 s: due at 0.300 (in 0.300 s)` (an entry whose
  /// effect is not known says its kind, `timer`; a throttle window `ends at`).
  package func summary(now: Double, origin: Double = 0) -> String {
    var text = kind == .throttle ? "throttle window" : "#\(number)"
    if let id { text += " '\(id)'" }
    if kind != .throttle { text += " \(effect ?? kind.rawValue)" }
    if let debounce { text += ", debounce \(PendingEffect.seconds(debounce)) s" }
    if let window { text += " of \(PendingEffect.seconds(window)) s" }
    if let waiting { text += ", a \(waiting) waits for its end" }
    if let due {
      text += kind == .throttle ? ": ends at " : ": due at "
      text += "\(PendingEffect.seconds(due - origin)) (in \(PendingEffect.seconds(max(0, due - now))) s)"
    } else {
      text += ": not on the screen's clock (it ends when its work does)"
    }
    return text
  }

  /// `seconds` with three decimals (milliseconds), the way the tools print clock times.
  package static func seconds(_ seconds: Double) -> String {
    guard seconds.isFinite else { return String(seconds) }
    let millis = (seconds * 1000).rounded()
    let sign = millis < 0 ? "-" : ""
    let whole = abs(millis)
    guard whole < 1e15 else { return String(seconds) }
    let integer = Int64(whole)
    let fraction = String(integer % 1000)
    return "\(sign)\(integer / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
  }
}
