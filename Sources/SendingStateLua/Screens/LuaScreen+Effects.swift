import Foundation
import SendingState

/// Async effects: work a handler starts whose result comes back as an action.
///
/// In `handle(action, store)`:
/// - `store:after(seconds, action)` dispatches `action` after a delay;
/// - `store:fetch(url, { ok = "loaded", fail = "failed" })` GETs `url` and dispatches
///   `{ type = "loaded", status = 200, body = "…", json = <decoded, if JSON> }` or
///   `{ type = "failed", error = "…" }`.
///
/// Results arrive on the main actor and go through the same FIFO handling as any action.
/// Closing the screen cancels its effects; a result never touches a closed screen.
extension LuaScreen {
  func effectMethods() -> [String: LuaFunctionBody] {
    [
      "after": { [weak self] call in
        try MainActor.assumeIsolated {
          let seconds = try call.number(2)
          let longest = call.runtime.limits.maxEffectDelay
          guard seconds.isFinite, seconds >= 0, Duration.seconds(Int64(min(seconds, 1e15))) <= longest else {
            throw ScriptError(
              kind: .typeMismatch,
              message: "bad argument #1 to 'after' (seconds must be a finite number from 0 to \(longest.components.seconds), got \(seconds))")
          }
          let actions = try ScreenEvents.actions(from: try call.value(3), context: "store:after")
          self?.startEffect {
            try await Task.sleep(for: .seconds(seconds))
            return actions
          }
          return 0
        }
      },
      "fetch": { [weak self] call in
        try MainActor.assumeIsolated {
          let source = try call.string(2)
          guard let url = URL(string: source), ["http", "https"].contains(url.scheme ?? "") else {
            throw ScriptError(kind: .typeMismatch, message: "bad argument #1 to 'fetch' (an http(s) URL expected, got '\(source)')")
          }
          let types = try call.value(3)
          guard let ok = types["ok"].stringValue, let fail = types["fail"].stringValue else {
            throw ScriptError(kind: .typeMismatch, message: "bad argument #2 to 'fetch' ({ ok = \"type\", fail = \"type\" } expected)")
          }
          let limits = call.runtime.limits
          self?.startEffect {
            do {
              let (data, status) = try await HTTPGet.fetch(url, maxBytes: limits.maxFetchBytes, timeout: limits.fetchTimeout)
              var result: LuaValue = [
                "type": .string(ok), "status": .integer(Int64(status)), "body": .string(String(decoding: data, as: UTF8.self)),
              ]
              if let json = try? LuaValue(json: data, root: "json", limits: limits) { result["json"] = json }
              return [result]
            } catch is CancellationError {
              throw CancellationError()
            } catch let error as HTTPGet.TooLarge {
              return [["type": .string(fail), "error": .string(error.description)]]
            } catch {
              return [["type": .string(fail), "error": .string(error.localizedDescription)]]
            }
          }
          return 0
        }
      },
    ]
  }

  /// Runs `work` in the background; dispatches its actions on the main actor unless closed.
  func startEffect(_ work: @escaping @Sendable () async throws -> [LuaValue]) {
    guard !isClosed else { return }
    nextEffectIDValue += 1
    let id = nextEffectIDValue
    effects[id] = Task { @MainActor [weak self] in
      let actions: [LuaValue]
      do {
        actions = try await work()
      } catch {
        self?.effects[id] = nil
        return  // cancelled: nothing to deliver
      }
      guard let self, !self.isClosed, !Task.isCancelled else { return }
      self.effects[id] = nil
      self.deliverEffectResult(actions)
    }
  }

  /// Waits until no effect is pending, or `timeout` passes; returns whether all settled.
  @discardableResult
  public func settle(timeout: Duration = .seconds(10)) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !effects.isEmpty, clock.now < deadline {
      try? await Task.sleep(for: .milliseconds(2))
    }
    return effects.isEmpty
  }

  /// The number of effects still running.
  public var pendingEffects: Int { effects.count }
}
