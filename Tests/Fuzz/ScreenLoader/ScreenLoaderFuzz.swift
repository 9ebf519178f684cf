// Fuzz target: the screen loader. The input is a screen script (the seeds are the examples and
// the test fixtures' screens), written to a scratch file and opened with LuaScreen under tight
// limits (200 ms, 20M instruction units, 16 MiB per episode), with the shop's payload.
//
// Invariants:
// - opening either succeeds or throws ScriptError / ScreenUsageError, within the limits;
// - a script error from opening names the script (its chunk);
// - a quarter of the screens that open (deterministic ones: no clock, randomness, table order
//   or addresses) are hot-reloaded at once: same state, same render tree;
// - if the screen opens: its state reads as data; a few events run (a tap on each of the first
//   views, two performed actions), each one either commits or changes nothing (state, render
//   tree, action log), and a committed one adds exactly its actions to the log; `close()` works
//   and the closed screen refuses events;
// - no crash, no leak (LeakSanitizer checks each input), no hang (libFuzzer's -timeout).
import Foundation
import SendingStateLua

@_cdecl("LLVMFuzzerTestOneInput")
public func screenLoaderFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let source = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  MainActor.assumeIsolated { openScreen(source) }
  return 0
}

@MainActor
func openScreen(_ source: [UInt8]) {
  let path = FuzzScratch.write(source)
  var limits = LuaRuntime.Limits()
  limits.timeLimit = .milliseconds(200)
  limits.instructionBudget = 20_000_000
  limits.memoryLimit = 16 << 20
  let options = LuaScreen.Options(limits: limits, data: FuzzScratch.shopPayload, output: { _ in })
  var screen: LuaScreen
  do {
    screen = try LuaScreen(path: path, options: options)
  } catch let error as ScriptError {
    if fuzzVerbose { fuzzLog("open failed: \(error)") }
    if error.chunk == nil { fuzzNote("open-error-without-chunk-\(error.kind)", "\(error)") }
    return
  } catch {
    checkScreenError(error, during: "opening a screen")
    return
  }
  _ = screen.state  // reads as data
  if source.count % 4 == 0, isDeterministic(source) {
    // A hot reload right after opening shows the same state and the same views.
    let state = screen.state
    let tree = screen.renderTree().text
    do {
      let fresh = try screen.reloaded()
      fuzzCheck(fresh.state == state, "a hot reload changed the state:\n  before: \(brief(state))\n  after:  \(brief(fresh.state))")
      fuzzCheck(
        fresh.renderTree().text == tree,
        "a hot reload changed the views of a deterministic screen:\n--- before\n\(tree)\n--- after\n\(fresh.renderTree().text)")
      screen = fresh
    } catch {
      checkScreenError(error, during: "a hot reload")
    }
  }
  for id in screen.ids.prefix(6) {
    checkEvent(screen, "tap \(id)", singleEvent: false) { try screen.tap(id) }
  }
  for action: LuaValue in ["fuzz", ["type": "increment", "id": "x", "value": 1]] {
    checkEvent(screen, "perform \(action)", singleEvent: true) { try screen.perform(action: action) }
  }
  screen.close()
  do {
    try screen.perform(action: "after-close")
    fuzzFail("a closed screen handled an action")
  } catch {
    checkScreenError(error, during: "an action after close")
  }
}

/// Whether a script can only do the same thing twice: no clock, no randomness, no garbage
/// collector, no effects (a reload must then show what the first opening showed).
func isDeterministic(_ source: [UInt8]) -> Bool {
  // (`pairs` and `next` follow Lua's seeded hash order; `tostring` of a table shows an address.)
  let text = String(decoding: source, as: UTF8.self).replacingOccurrences(of: "ipairs", with: "")
  return !["os.", "math.random", "collectgarbage", "store:after", "store:fetch", "pairs", "next", "tostring"].contains {
    text.contains($0)
  }
}
