import SendingStateLua

/// The screen driver specs get from `require "sendingstate"`: the one part of `sendingstate
/// test` that busted and luassert do not give.
///
/// ```lua
/// local ss = require "sendingstate"
/// local screen = ss.open("counter.lua", { state = { count = 5 } })   -- beside the spec, or from the project root
/// screen:tap("plus")
/// screen:settle()                      -- waits for timers and fetches (default: --settle seconds)
/// assert.are.equal(6, screen.state.count)
/// assert.are.equal("6", screen.view.count.text)
/// assert.tree_matches(screen, "after-plus")   -- __snapshots__/<spec>/after-plus.tree beside the spec
/// ```
///
/// A screen opened inside a test (or its `before_each`/`after_each`) is closed when that test
/// ends; one opened in a block's body or `setup` is closed when the block ends.
enum SpecScreenDriver {
  /// A chunk returning `function(prims, settings, busted)`, which returns
  /// `{ module = <the sendingstate module>, scopeBegin, scopeEnd, closeAll }`.
  static let source = HostCode.text("spec/screen_driver.lua")
}
