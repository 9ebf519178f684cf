import SendingState
import SendingStateHeadless

/// Why a driver's interaction reached no script callback: the reasons a ``LuaScreen/Step``
/// gives in ``LuaScreen/Step/why`` when no UI event reached the screen.
///
/// The kernel explains the rest (a callback that returned no action, middleware that dropped
/// one); this side sees what happens before the script: the view or an ancestor is hidden or
/// disabled, nothing is registered for the events the interaction fires, a gesture did not
/// meet its recognizer's requirements, or every phase it went through was filtered out.
@MainActor
struct Silence {
  /// What the driver did.
  enum Asked {
    /// Control events fired on a control (a tap fires several; `set` and `type` theirs),
    /// described as `verb` ("a tap", "set") in messages.
    case control(ControlEvents, verb: String)
    /// A gesture of one kind with its input and the phases it went through.
    case gesture(SenderEvent.Gesture.Kind, GestureInput, [GestureState])
  }

  let engine: ScreenEngine

  /// The reasons, most decisive first (one is usually enough).
  ///
  /// - Parameter happened: whether the interaction took place at all (a value set to the value
  ///   the control already has does not fire).
  /// - Parameter owner: whose views `id` names: "the screen", or "row 2 of 'items'".
  func reasons(target: View, id: String, in owner: String, asked: Asked, happened: Bool) -> [String] {
    if let blocked = Self.blocker(of: target, id: id) { return [blocked] }
    let registered = engine.registeredEvents(on: target)
    switch asked {
    case .control(let events, let verb):
      if !happened {
        let clamped = target is Slider ? " after clamping to its range" : ""
        return ["'\(id)' already has that value\(clamped), so \(verb) fired no event (valueChanged fires only on a change)"]
      }
      return [Self.unregistered(id: id, in: owner, fired: "\(events) (what \(verb) fires)", registered: registered)]
    case .gesture(let kind, let input, let phases):
      let gestures = registered.compactMap { event -> SenderEvent.Gesture? in
        if case .gesture(let gesture) = event, gesture.kind.contains(kind) { return gesture }
        return nil
      }
      let recognizers = target.gestureRecognizers.filter { $0.kind == kind }
      guard !gestures.isEmpty, !recognizers.isEmpty else {
        return [Self.unregistered(id: id, in: owner, fired: "a \(kind) gesture", registered: registered)]
      }
      let enabled = recognizers.filter(\.isEnabled)
      guard !enabled.isEmpty else { return ["the \(kind) recognizer on '\(id)' is disabled"] }
      let accepting = enabled.filter { $0.accepts(input) }
      guard !accepting.isEmpty else {
        let wants = enabled.map { Self.text($0.parameters) }.joined(separator: " or ")
        return [
          "the \(kind) gesture registered on '\(id)' wants \(wants); this one (\(Self.text(input, kind: kind))) did not meet it"
        ]
      }
      let listened = Set(gestures.flatMap(\.states))
      let went = phases.isEmpty ? "through no phase" : phases.map(\.description).joined(separator: ", ")
      if !listened.isEmpty, listened.isDisjoint(with: phases) {
        let wanted = listened.map(\.description).sorted().joined(separator: ", ")
        return [
          "the \(kind) gesture registered on '\(id)' delivers only in phase \(wanted); this one went \(went), so every phase was filtered out"
        ]
      }
      return ["the \(kind) gesture on '\(id)' (phases \(went)) reached no callback"]
    }
  }

  /// The most reasons a step keeps (one interaction fires an event per typed character, each
  /// with up to 16 notes of its own from the kernel).
  static let most = 32

  /// `notes`, cut to ``most`` with a last line saying more were left out (read no further).
  static func kept(_ notes: some Sequence<String>) -> [String] {
    var kept: [String] = []
    for note in notes {
      guard kept.count < most else { return kept + ["(and more: a step keeps the first \(most) reasons)"] }
      kept.append(note)
    }
    return kept
  }

  /// Why `target` takes no interaction: it or an ancestor is hidden, transparent or disabled.
  static func blocker(of target: View, id: String) -> String? {
    var current: View? = target
    while let view = current {
      let what: String? =
        if view.isHidden { "hidden (hidden = true)" }
        else if view.alpha < 0.01 { "transparent (alpha = \(view.alpha), below 0.01)" }
        else if !view.isEnabled { "disabled (enabled = false)" }
        else { nil }
      if let what {
        if view === target { return "'\(id)' is \(what), so it takes no interaction" }
        let name = view.id.map { "'\($0)'" } ?? "a \(view.kind) with no id"
        return "'\(id)' is inside \(name), which is \(what), so it takes no interaction"
      }
      current = view.superview
    }
    return nil
  }

  /// Nothing on `id` listens to what was fired.
  static func unregistered(id: String, in owner: String, fired: String, registered: [SenderEvent]) -> String {
    guard !registered.isEmpty else {
      if owner == "the screen" { return "nothing is registered on '\(id)': no on(view.\(id), …) in the screen's events" }
      return "nothing is registered on '\(id)' in \(owner): no on(…) for it in that list's row events"
    }
    let names = registered.map { event -> String in
      switch event {
      case .control(let control): "\(control.value)"
      case .gesture(let gesture): "a \(gesture.kind) gesture"
      }
    }
    var seen: Set<String> = []
    let unique = names.filter { seen.insert($0).inserted }
    return "nothing on '\(id)' listens to \(fired); it has callbacks for \(unique.joined(separator: ", "))"
  }

  /// `taps=2, touches=1`.
  static func text(_ parameters: [RenderProperty]) -> String {
    parameters.map { "\($0.name)=\(text($0.value))" }.joined(separator: ", ")
  }

  private static func text(_ value: RenderValue) -> String {
    switch value {
    case .string(let text): text
    case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    case .integer(let integer): String(integer)
    case .bool(let flag): String(flag)
    case .strings(let texts): texts.joined(separator: "|")
    case .null: "none"
    }
  }

  /// The input's parameters as given (`taps=1` when none were).
  static func text(_ input: GestureInput, kind: SenderEvent.Gesture.Kind) -> String {
    var parts: [String] = []
    if let taps = input.taps { parts.append("taps=\(taps)") }
    if let touches = input.touches { parts.append("touches=\(touches)") }
    if let direction = input.direction { parts.append("direction=\(direction)") }
    if let edge = input.edge { parts.append("edge=\(edge)") }
    if let duration = input.duration { parts.append("duration=\(duration)") }
    guard parts.isEmpty else { return parts.joined(separator: ", ") }
    return kind == .tap ? "one tap with one touch" : "no parameters"
  }
}
