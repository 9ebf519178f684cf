/// What a screen waits for, and its clock, for the tools that show and step them.
extension LuaScreen {
  /// The effects running, throttle windows open and transitions under way, in the order they
  /// fall due (see ``PendingEffect``).
  package var pendingList: [PendingEffect] { engine.pendingList() }

  /// The screen's clock now (seconds since 1970 on the machine's clock; a ``VirtualClock``'s
  /// own time otherwise).
  package var clockNow: Double { options.clock.now }

  /// When the next timer on the screen's ``VirtualClock`` is due (an effect's, a throttle
  /// window's end, a transition's end); nil on another clock or when none waits.
  package var nextDue: Double? { (options.clock as? VirtualClock)?.nextDeadline }
}
