-- The screen driver (`require "sendingstate"`) in busted's style: screens in hooks, spies on
-- what the driver returns, effects, snapshots of render trees, and the driver's errors.
local ss = require "sendingstate"

describe("the screen driver #screens", function()
  local counter

  before_each(function()
    counter = ss.open("examples/counter/counter.lua")   -- from the project root
  end)

  it("opens screens beside the spec first", function()
    local ticker = ss.open("screens/ticker.lua")
    assert.are.equal(0, ticker.state.ticks)
  end)

  it("drives a screen and reads state, views and actions", function()
    counter:tap("plus")
    assert.are.equal(2, counter.state.count)
    assert.are.equal("2", counter.view.count.text)
    assert.are.same({ { type = "increment" } }, counter.actions)
    assert.is_true(counter.view.minus.enabled)
  end)

  it("matches the render tree to a snapshot beside the spec", function()
    counter:tap("plus")
    assert.tree_matches(counter, "counter-after-plus")
    assert.tree_matches("counter-after-plus")   -- the last screen opened
  end)

  it("waits for effects with settle", function()
    local ticker = ss.open("screens/ticker.lua")
    ticker:tap("start")
    assert.are.equal(1, ticker.pending)
    ticker:settle()
    assert.are.equal(1, ticker.state.ticks)
    assert.are.equal(0, ticker.pending)
  end)

  it("fails settle on a timer that re-arms itself, naming what is pending", function()
    local ticker = ss.open("screens/ticker.lua")
    ticker:tap("loop")
    assert.error_matches(function() ticker:settle(0.2) end, "1 effect%(s%) still pending after 0.2 s")
  end)

  it("raises driver errors at the spec's line, listing the ids", function()
    local ok, message = pcall(function() counter:tap("plu") end)
    assert.is_false(ok)
    assert.matches("screen_driver_spec.lua:%d+: no view with id 'plu' %(ids: buttons, count", message)
  end)

  it("reports a missing screen with where it looked", function()
    assert.error_matches(function() ss.open("nope.lua") end,
      "no screen 'nope.lua' %(looked for .*spec/nope.lua and .*nope.lua%)")
  end)

  it("keeps screen.view read-only", function()
    assert.has_error(function() counter.view.count.text = "x" end,
      "screen.view is read-only: drive the screen with tap/set/type…")
  end)

  it("hands values to spies like any Lua code", function()
    local seen = spy.new(function() end)
    counter:tap("plus")
    seen(counter.state.count)
    assert.spy(seen).was.called_with(2)
  end)
end)

describe("screen lifetimes", function()
  local shared
  setup(function()
    shared = ss.open("examples/counter/counter.lua")
  end)

  it("keeps a screen opened in setup across tests (1)", function()
    shared:tap("plus")
    assert.are.equal(2, shared.state.count)
  end)

  it("keeps a screen opened in setup across tests (2)", function()
    shared:tap("plus")
    assert.are.equal(3, shared.state.count)
  end)

  local leaked
  it("opens a screen in a test", function()
    leaked = ss.open("examples/counter/counter.lua")
  end)

  it("finds it closed once that test ended", function()
    assert.has_error(function() leaked:tap("plus") end, "the screen was closed")
  end)
end)
