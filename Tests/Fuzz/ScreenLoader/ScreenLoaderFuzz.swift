// Fuzz target: the screen loader. The input is a screen script (the seeds are the examples and
// the test fixtures' screens), written to a scratch file and opened with LuaScreen under tight
// limits (200 ms, 20M instruction units, 16 MiB per episode), with the shop's payload.
//
// Invariants:
// - opening either succeeds or throws ScriptError / ScreenUsageError, within the limits;
// - a script error from opening names the script (its chunk);
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
  let screen: LuaScreen
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
