/// What the engine waits for, read back for lists of pending effects (see ``PendingEffect``).
extension ScreenEngine {
  /// The effects running, the throttle windows open and the named states' transitions, in the
  /// order they fall due (those not on the screen's clock last, by number).
  func pendingList() -> [PendingEffect] {
    let virtual = runtime.clock as? VirtualClock
    let now = runtime.clock.now
    var list: [PendingEffect] = []
    // The effects a throttle window's end starts (a timer under the window's id, due at its end).
    var waiters: Set<Int> = []
    for (id, window) in throttles where window.end > now || window.waiting != nil {
      var entry = PendingEffect(number: 0, id: id, kind: .throttle, due: window.end)
      if let waiting = window.waiting {
        entry.waiting = Self.kindName(of: waiting)
        entry.window = Self.throttleLength(of: waiting)
        let waiter = effects.filter { $0.value.target.name == id && !$0.value.target.tickets.isEmpty }.keys.max()
        if let waiter {
          waiters.insert(waiter)
          entry.number = waiter
        }
      }
      list.append(entry)
    }
    for (number, effect) in effects where !waiters.contains(number) {
      // The earliest of its timers still waiting (a debounce, then a fake's answer delay).
      let due = virtual.flatMap { clock in effect.target.tickets.compactMap { clock.deadline(of: $0) }.min() }
      var entry = PendingEffect(number: number, id: effect.target.name, kind: due == nil ? .running : .timer, due: due)
      entry.effect = effect.target.shown?.effect
      entry.debounce = effect.target.shown?.debounce
      list.append(entry)
    }
    for (token, transition) in transitions {
      let due = transition.ticket.flatMap { virtual?.deadline(of: $0) }
      list.append(PendingEffect(number: token, id: nil, kind: .transition, due: due))
    }
    return list.sorted { left, right in
      switch (left.due, right.due) {
      case (let a?, let b?): return (a, left.number) < (b, right.number)
      case (nil, nil): return left.number < right.number
      case (_?, nil): return true
      case (nil, _?): return false
      }
    }
  }

  /// `effect`'s kind as the script named it.
  static func kindName(of effect: EngineBatch.Effect) -> String {
    switch effect {
    case .after: "after"
    case .fetch: "fetch"
    case .task: "task"
    case .cancel: "cancel"
    case .transition: "transition"
    }
  }

  /// The throttle window `effect` asked for.
  private static func throttleLength(of effect: EngineBatch.Effect) -> Double? {
    switch effect {
    case .after(_, _, let options), .fetch(_, _, _, _, _, _, _, let options), .task(_, _, _, _, let options): options.throttle
    case .cancel, .transition: nil
    }
  }
}
