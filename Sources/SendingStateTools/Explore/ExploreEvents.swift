import SendingState
import SendingStateHeadless
import SendingStateLua

/// The EVENTs `sendingstate explore` can send a screen now: one or more for each event the
/// screen registered (`on(...)`) on a view a user can reach, with values a user could give.
///
/// Generated from the screen as it is at each step (views are enabled, hidden and filled by the
/// state), so every candidate can do something: a button's tap, a switch set to either side, a
/// slider at a value within its range, a segment, text typed into a field, a gesture with the
/// parameters its registration asks for; and the same in the visible rows of each list.
///
/// ```swift
/// let candidates = ExploreEvents.candidates(on: screen, random: &random)
/// ```
@MainActor
enum ExploreEvents {
  /// Texts typed into fields: empty, short, numeric, negative, accented, long.
  nonisolated static let texts = ["", "a", "tea", "42", "-1", "green tea", "Äpfel", String(repeating: "x", count: 40)]

  /// The candidates now, in a stable order (ids sorted, registrations in order); values drawn
  /// from `random` where a user would choose one.
  static func candidates(on screen: LuaScreen, random: inout ExploreRandom) -> [EventCommand] {
    var result = commands(on: screen.driver, random: &random)
    for (listID, view) in screen.ids.compactMap({ id in (try? screen.view(id)).map { (id, $0) } }) {
      guard let list = view as? ListView, list.isInteractive, list.numberOfRows > 0 else { continue }
      // Rows on screen only (a row further down would scroll while candidates are listed): the
      // first visible one and one drawn among the others.
      let visible = list.visibleRows.compactMap(\.index).sorted()
      guard let first = visible.first else { continue }
      var indices = [first + 1]
      if let other = random.element(of: visible) { indices.append(other + 1) }
      for index in Set(indices).sorted() {
        guard let driver = try? screen.row(listID, index) else { continue }
        result += commands(on: driver, random: &random).map { .row(listID, index, $0) }
      }
    }
    return result
  }

  /// The candidates among one driver's views.
  static func commands(on driver: ScreenDriver, random: inout ExploreRandom) -> [EventCommand] {
    var result: [EventCommand] = []
    for (id, view, events) in driver.allRegistrations {
      guard !events.isEmpty, view.isInteractive else { continue }
      var seen = Set<String>()
      for event in events {
        for command in commands(for: event, on: view, id: id, random: &random) where seen.insert(command.description).inserted {
          result.append(command)
        }
      }
    }
    return result
  }

  private static func commands(for event: SenderEvent, on view: View, id: String, random: inout ExploreRandom) -> [EventCommand] {
    switch event {
    case .control(let control):
      return ControlEvents.named.filter { control.value.contains($0.event) }.map { named in
        controlCommand(named.event, name: named.name, on: view, id: id, random: &random)
      }
    case .gesture(let gesture):
      return gesture.kind.singleKinds.map { kind in
        var parameters: [String: String] = [:]
        if let taps = gesture.numberOfTaps, taps > 0 { parameters["taps"] = String(taps) }
        if let touches = gesture.numberOfTouches { parameters["touches"] = String(touches) }
        if let direction = gesture.direction {
          let bits = SwipeDirection.named.filter { direction.contains($0.direction) }
          if let pick = random.element(of: bits) { parameters["direction"] = pick.name }
        }
        if let duration = gesture.minimumPressDuration { parameters["duration"] = String(duration) }
        return .gesture(id, kind.description, parameters)
      }
    }
  }

  private static func controlCommand(
    _ event: ControlEvents, name: String, on view: View, id: String, random: inout ExploreRandom
  ) -> EventCommand {
    switch (event, view) {
    case (.touchUpInside, is Control): return .tap(id)
    case (.valueChanged, let toggle as Switch): return .set(id, toggle.isOn ? "off" : "on")
    case (.valueChanged, let segments as SegmentedControl) where !segments.segments.isEmpty:
      return .set(id, String(random.int(in: 1...segments.segments.count)))
    case (.valueChanged, let slider as Slider):
      let low = slider.minimumValue
      let high = max(low, slider.maximumValue)
      let steps = random.int(in: 0...4)
      return .set(id, ExploreEvents.number(low + (high - low) * Double(steps) / 4))
    case (.editingChanged, is TextField), (.editingDidEnd, is TextField), (.editingDidBegin, is TextField):
      return .type(id, random.element(of: texts) ?? "")
    default:
      return .send(id, name)
    }
  }

  /// `3` for 3.0, `2.5` for 2.5: how a user types a number.
  nonisolated static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }
}

/// The explorer's random numbers: SplitMix64, so a seed gives the same run on every machine.
struct ExploreRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `range` (not empty).
  mutating func int(in range: ClosedRange<Int>) -> Int {
    let width = UInt64(range.upperBound - range.lowerBound) &+ 1
    return range.lowerBound + Int(width == 0 ? next() >> 1 : next() % width)
  }

  /// An element of `items`, or nil when there is none.
  mutating func element<T>(of items: [T]) -> T? {
    items.isEmpty ? nil : items[int(in: 0...(items.count - 1))]
  }
}
