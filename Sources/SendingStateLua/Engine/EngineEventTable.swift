import SendingState

/// The events scripts registered with `on`, each parsed once and numbered: the kernel keeps
/// the number, Swift the parsed event. Shared by screens (``ScreenEngine``) and the script
/// roles (`LuaViewBridge`), so both read `on`'s arguments the same way.
struct EngineEventTable {
  private var events: [SenderEvent] = []
  private var keys: [SenderEvent: Int] = [:]

  /// The number of the event `spec` names on a sender of `kind` (a new number for an event
  /// not seen before), and the event's name; or the error that names what is wrong with it.
  mutating func key(
    for spec: LuaValue, senderID: String?, kind: ViewKindDescription
  ) -> Result<(key: Int, name: String), ScriptError> {
    do {
      let (event, name) = try ScreenEvents.parse(spec, senderID: senderID, kind: kind.name, isControl: kind.isControl)
      if let key = keys[event] { return .success((key, name)) }
      events.append(event)
      keys[event] = events.count
      return .success((events.count, name))
    } catch let error as ScriptError {
      return .failure(error)
    } catch {
      return .failure(ScriptError(kind: .runtime, message: "\(error)"))
    }
  }

  /// The event numbered `key`, or nil for a number the table never gave.
  func event(_ key: Int) -> SenderEvent? {
    key >= 1 && key <= events.count ? events[key - 1] : nil
  }
}
