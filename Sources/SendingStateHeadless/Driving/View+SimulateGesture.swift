import SendingState

/// Driving gestures, for tests and tools.
extension View {
  /// Performs a gesture of `kind` on the view, as a user would.
  ///
  /// Every enabled recognizer of that kind attached to the view whose requirements `input`
  /// satisfies runs the state sequence (default: `[.recognized]` for taps and swipes,
  /// `[.began, .changed, .ended]` for continuous kinds); the others fail. Nothing happens when the
  /// view is not interactive.
  ///
  /// ```swift
  /// card.simulateGesture(.swipe, GestureInput(direction: .left))
  /// card.simulateGesture(.longPress, states: [.began, .cancelled])
  /// ```
  ///
  /// - Returns: how many recognizers recognized the gesture.
  /// - Throws: ``GestureTransitionError`` if `states` is not a valid sequence for `kind`
  ///   (checked before anything fires).
  @discardableResult
  public func simulateGesture(
    _ kind: SenderEvent.Gesture.Kind, _ input: GestureInput = GestureInput(), states: [GestureState]? = nil
  ) throws(GestureTransitionError) -> Int {
    let probe = GestureRecognizer(kind: kind)
    let sequence = states ?? probe.defaultSequence
    var check = GestureState.possible
    for next in sequence {
      guard probe.canTransition(from: check, to: next) else {
        throw GestureTransitionError(kind: kind, from: check, to: next)
      }
      check = next
    }
    guard isInteractive else { return 0 }
    var recognized = 0
    for recognizer in gestureRecognizers where recognizer.kind == kind && recognizer.isEnabled {
      if recognizer.accepts(input) {
        recognizer.apply(input)
        try recognizer.perform(sequence)
        recognized += 1
      } else {
        try recognizer.perform([.failed])
      }
    }
    return recognized
  }
}

extension ListView {
  /// Scrolls as a user would, so `index` becomes the first visible row (clamped).
  ///
  /// - Returns: whether the window moved.
  @discardableResult
  public func simulateScroll(toRow index: Int) -> Bool {
    guard isInteractive else { return false }
    let before = firstVisibleIndex
    scroll(toRow: index)
    return before != firstVisibleIndex
  }
}
