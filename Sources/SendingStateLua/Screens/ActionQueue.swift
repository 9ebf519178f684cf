/// Handles actions one at a time, in order: an action that arrives while another is handled
/// waits its turn (FIFO, no recursion), as every mature peer does.
///
/// The first error drops the actions still waiting and is thrown to whoever started the run.
@MainActor
final class ActionQueue {
  private var pending: [LuaValue] = []
  private var isHandling = false

  /// Queues `action`; unless a run is under way, handles the queue until it is empty.
  func run(_ action: LuaValue, handle: (LuaValue) throws -> Void) throws {
    pending.append(action)
    guard !isHandling else { return }
    isHandling = true
    defer { isHandling = false }
    while !pending.isEmpty {
      let next = pending.removeFirst()
      do {
        try handle(next)
      } catch {
        pending.removeAll()
        throw error
      }
    }
  }

  /// Drops the waiting actions.
  func clear() {
    pending.removeAll()
  }
}
