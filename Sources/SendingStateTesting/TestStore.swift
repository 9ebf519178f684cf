import Foundation
import SendingState
import Testing

/// A reducer store for tests: send an action and assert the exact state change; receive the
/// exact actions effects send back; fail on anything left unasserted (TCA-10).
///
/// ```swift
/// @Test @MainActor func search() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: Search(), reducer: search(clock: clock))
///   await store.send(.queryChanged("tea")) { $0.query = "tea" }
///   await clock.advance(by: .milliseconds(300))
///   await store.receive(.loaded(["Green tea"])) {
///     $0.results = ["Green tea"]
///   }
/// }
/// ```
///
/// Each `send` or `receive` closure gets the state before the action and must turn it into the
/// state after; a mismatch fails with a diff (`−` expected, `+` actual). With ``Exhaustivity/on``
/// (the default) the test also fails when it sends while received actions wait, and when the
/// store is released with actions not received or effects still running (call ``finish(timeout:fileID:filePath:line:column:)``
/// to wait for them). Store diagnostics (a late send, an uncaught effect error) fail the test too.
///
/// Failures are recorded as Swift Testing issues at the line of the call; set
/// ``reportFailure`` to report them elsewhere (XCTest, a log).
@MainActor
public final class TestStore<State: Equatable & SendableMetatype, Action: Equatable & Sendable> {
  /// Receives each failure: the message and where the failing call is.
  public typealias FailureReporter = @MainActor (_ message: String, _ location: SourceLocation) -> Void

  /// How strictly the store checks (default ``Exhaustivity/on``).
  public var exhaustivity: Exhaustivity = .on
  /// How long ``receive(_:timeout:fileID:filePath:line:column:assert:)`` and ``finish(timeout:fileID:filePath:line:column:)``
  /// wait for effects by default (real time: effects under a ``TestClock`` need none).
  public var timeout: Duration = .seconds(1)
  /// Where failures go; by default, `Issue.record`.
  public var reportFailure: FailureReporter = { message, location in
    Issue.record(Comment(rawValue: message), sourceLocation: location)
  }

  /// The state as the test has asserted it so far.
  public private(set) var state: State

  private let store: ReducerStore<State, Action>
  private let recorder: Recorder
  private let createdAt: SourceLocation

  /// What the wrapped reducer saw: the sent action's resulting state, and the actions that
  /// came from effects (with the state after each).
  /// Unchecked: it is touched only on the main actor — by this store, and by its reducer, which
  /// the main-actor ``ReducerStore`` runs (the reducer's closure is `@Sendable` only so that
  /// reducers can be global constants).
  private final class Recorder: @unchecked Sendable {
    var expectingSent = false
    var sentState: State?
    var received: [(action: Action, state: State)] = []
    var diagnostics: [StoreDiagnostic] = []
  }

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: the state before any action.
  ///   - reducer: the reducer under test.
  ///   - fileID: the file of the call (failures are reported at the call).
  ///   - filePath: the path of the file of the call.
  ///   - line: the line of the call.
  ///   - column: the column of the call.
  public init(
    initialState: State, reducer: Reducer<State, Action>,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    let recorder = Recorder()
    let recording = Reducer<State, Action> { state, action in
      let effect = reducer.reduce(&state, action)
      // (Checked at run time: the recorder's unchecked Sendable rests on this.)
      MainActor.preconditionIsolated("a test store's reducer runs on the main actor")
      if recorder.expectingSent {
        recorder.expectingSent = false
        recorder.sentState = state
      } else {
        recorder.received.append((action, state))
      }
      return effect
    }
    self.state = initialState
    self.recorder = recorder
    self.createdAt = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.store = ReducerStore(
      root: initialState, reducer: recording, isDuplicate: nil, notifications: .everyAction,
      diagnostics: { recorder.diagnostics.append($0) })
  }

  isolated deinit {
    guard exhaustivity == .on else {
      store.cancelAllEffects()
      return
    }
    checkDiagnostics(at: createdAt)
    if !recorder.received.isEmpty {
      fail(
        "The store received \(recorder.received.count) unexpected action(s) that the test did not receive:\n"
          + recorder.received.map { "  \($0.action)" }.joined(separator: "\n")
          + "\nreceive them with store.receive(…), or call store.skipReceivedActions()", at: createdAt)
    }
    let running = store.inFlightEffectOrigins
    if !running.isEmpty {
      fail(
        "An effect returned for this action is still running: \(running.joined(separator: ", ")). "
          + "It must finish before the end of the test: await store.finish(), advance the test clock, "
          + "or call store.skipInFlightEffects()", at: createdAt)
    }
    store.cancelAllEffects()
  }

  /// Sends `action` and asserts the state change it makes.
  ///
  /// - Parameters:
  ///   - action: the action a user (or the test) sends.
  ///   - fileID: the file of the call (failures are reported at the call).
  ///   - filePath: the path of the file of the call.
  ///   - line: the line of the call.
  ///   - column: the column of the call.
  ///   - assert: mutates the state before the action into the expected state after it; leave
  ///     it out when the action must not change the state.
  /// - Returns: the effects the action started.
  @discardableResult
  public func send(
    _ action: Action, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    assert: ((inout State) throws -> Void)? = nil
  ) async -> StoreTask {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    if exhaustivity == .on, !recorder.received.isEmpty {
      fail(
        "Must handle \(recorder.received.count) received action(s) before sending an action:\n"
          + recorder.received.map { "  \($0.action)" }.joined(separator: "\n"), at: location)
    }
    if !recorder.received.isEmpty {
      // Non-exhaustive: what effects did so far counts as seen.
      state = recorder.received.last!.state
      recorder.received.removeAll()
    }
    recorder.expectingSent = true
    recorder.sentState = nil
    let task = store.send(action)
    let actual = recorder.sentState ?? store.state
    recorder.sentState = nil
    check(action: "\(action)", previous: state, actual: actual, assert: assert, at: location)
    state = actual
    await settle()
    checkDiagnostics(at: location)
    return task
  }

  /// Waits for the next action an effect sent, checks it is `action`, and asserts the state
  /// change it made.
  ///
  /// - Parameters:
  ///   - action: the action expected next.
  ///   - timeout: how long to wait (real time; default ``timeout``).
  ///   - fileID: the file of the call (failures are reported at the call).
  ///   - filePath: the path of the file of the call.
  ///   - line: the line of the call.
  ///   - column: the column of the call.
  ///   - assert: mutates the state before the action into the expected state after it.
  public func receive(
    _ action: Action, timeout: Duration? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    assert: ((inout State) throws -> Void)? = nil
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let limit = timeout ?? self.timeout
    let clock = ContinuousClock()
    let start = clock.now
    while true {
      if exhaustivity == .off {
        // Skips to the named action, waiting for it if it has not come yet.
        if let index = recorder.received.firstIndex(where: { $0.action == action }) {
          if index > 0 { state = recorder.received[index - 1].state }
          recorder.received.removeFirst(index)
          break
        }
      } else if !recorder.received.isEmpty {
        break
      }
      if clock.now - start > limit {
        let what = recorder.received.isEmpty ? "nothing" : "only " + recorder.received.map { "\($0.action)" }.joined(separator: ", ")
        fail("Expected to receive \(action), but received \(what) within \(limit)", at: location)
        return
      }
      await pause(since: start, on: clock)
    }
    let (received, actual) = recorder.received.removeFirst()
    if received != action {
      fail(
        "Received unexpected action: (Expected \u{2212}, Received +)\n"
          + (ValueDiff.lines(action, received) ?? "\u{2212} \(action)\n+ \(received)"), at: location)
    }
    check(action: "\(received)", previous: state, actual: actual, assert: assert, at: location)
    state = actual
    await settle()
    checkDiagnostics(at: location)
  }

  /// Waits until every effect has finished; fails if some are still running after `timeout`.
  ///
  /// - Parameters:
  ///   - timeout: how long to wait (real time; default ``timeout``).
  ///   - fileID: the file of the call (failures are reported at the call).
  ///   - filePath: the path of the file of the call.
  ///   - line: the line of the call.
  ///   - column: the column of the call.
  public func finish(
    timeout: Duration? = nil, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let limit = timeout ?? self.timeout
    let clock = ContinuousClock()
    let start = clock.now
    while !store.inFlightEffectOrigins.isEmpty {
      if clock.now - start > limit {
        fail(
          "Expected effects to finish within \(limit), but some are still running (started by "
            + store.inFlightEffectOrigins.joined(separator: ", ") + ")", at: location)
        return
      }
      await pause(since: start, on: clock)
    }
    checkDiagnostics(at: location)
  }

  /// Accepts every action received so far without asserting it (the state moves on to the
  /// state after the last one).
  public func skipReceivedActions() async {
    await settle()
    if let last = recorder.received.last { state = last.state }
    recorder.received.removeAll()
  }

  /// Cancels every effect still running, so none is owed at the end of the test.
  public func skipInFlightEffects() async {
    store.cancelAllEffects()
    await settle()
  }

  // MARK: - Checks

  private func check(
    action: String, previous: State, actual: State, assert: ((inout State) throws -> Void)?, at location: SourceLocation
  ) {
    if exhaustivity == .off {
      // Partial: the closure's mutations must already hold in the actual state.
      guard let assert else { return }
      var expected = actual
      do { try assert(&expected) } catch {
        fail("The assertion closure for \(action) threw \(error)", at: location)
        return
      }
      if let diff = ValueDiff.lines(expected, actual) {
        fail("A state change does not match expectation: (Expected \u{2212}, Actual +)\n\(diff)", at: location)
      }
      return
    }
    var expected = previous
    if let assert {
      do { try assert(&expected) } catch {
        fail("The assertion closure for \(action) threw \(error)", at: location)
        return
      }
      if expected == previous, actual == previous {
        fail(
          "Expected state to change, but no change occurred (after \(action)). "
            + "The closure left the state as it was: leave it out when nothing changes", at: location)
        return
      }
    }
    guard expected != actual else { return }
    let diff = ValueDiff.lines(expected, actual) ?? "\u{2212} \(expected)\n+ \(actual)"
    if assert == nil {
      fail(
        "State was not expected to change, but a change occurred (after \(action)): (Expected \u{2212}, Actual +)\n\(diff)",
        at: location)
    } else {
      fail("A state change does not match expectation (after \(action)): (Expected \u{2212}, Actual +)\n\(diff)", at: location)
    }
  }

  private func checkDiagnostics(at location: SourceLocation) {
    let found = recorder.diagnostics
    recorder.diagnostics.removeAll()
    for diagnostic in found {
      fail("\(diagnostic)", at: location)
    }
  }

  private func fail(_ message: String, at location: SourceLocation) {
    reportFailure(message, location)
  }

  /// Lets effects started on the main actor reach their first suspension.
  private func settle() async {
    for _ in 0..<32 { await Task.yield() }
  }

  /// Waits a little: yields first (effects on the main actor), then short real sleeps (effects
  /// that wait on real work).
  private func pause(since start: ContinuousClock.Instant, on clock: ContinuousClock) async {
    if clock.now - start < .milliseconds(5) {
      await Task.yield()
    } else {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
}
