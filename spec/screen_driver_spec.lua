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

  it("keeps screen.state read-only, naming the path and how to change the state", function()
    local ok, message = pcall(function() counter.state.count = 5 end)
    assert.is_false(ok)
    assert.matches("screen_driver_spec.lua:%d+: screen.state.count is read%-only %(screen.state is what the screen "
      .. "shows%): change the state through the screen, with screen:tap/set/type/send", message)
    assert.are.equal(1, counter.state.count)
    assert.error_matches(function() counter.state.brandNew = true end, "screen.state.brandNew is read%-only")
  end)

  it("keeps the tables inside screen.state read-only too", function()
    local tasks = ss.open("examples/tasks/tasks.lua")
    for _, title in ipairs({ "Tea", "Cake" }) do
      tasks:type("draft", title)
      tasks:tap("add")
    end
    local state = tasks.state
    assert.error_matches(function() state.tasks[1].done = true end, "screen.state.tasks%[1%].done is read%-only")
    assert.error_matches(function() table.insert(state.tasks, { title = "Jam", done = false }) end,
      "screen.state.tasks%[3%] is read%-only")
    assert.error_matches(function() table.sort(state.tasks, function(a, b) return a.title < b.title end) end,
      "screen.state.tasks%[%d%] is read%-only")
    assert.are.same({ { title = "Tea", done = false }, { title = "Cake", done = false } }, tasks.state.tasks)
  end)

  it("reads screen.state like any table: same, #, pairs, ipairs, next, failure messages", function()
    local tasks = ss.open("examples/tasks/tasks.lua")
    tasks:type("draft", "Tea")
    tasks:tap("add")
    local state = tasks.state
    assert.are.same({ draft = "", tasks = { { title = "Tea", done = false } } }, state)
    assert.are_not.same({ draft = "", tasks = {} }, state)
    assert.are.equal(1, #state.tasks)
    assert.are.equal(state.tasks, state.tasks)   -- one view per table
    local keys = {}
    for key in pairs(state) do keys[#keys + 1] = key end
    table.sort(keys)
    assert.are.same({ "draft", "tasks" }, keys)
    for i, task in ipairs(state.tasks) do assert.are.same({ i, "Tea" }, { i, task.title }) end
    local first = next(state)
    assert.is_true(first == "draft" or first == "tasks")
    assert.is_not_nil(next(state.tasks))
    assert.are.equal("Tea", table.concat({ state.tasks[1].title }))
    local ok, message = pcall(function() assert.are.same({ draft = "", tasks = {} }, state) end)
    assert.is_false(ok)
    assert.matches("%[title%] = 'Tea'", tostring(message))
  end)

  it("hands screen.state back to the screen as plain values", function()
    local tasks = ss.open("examples/tasks/tasks.lua")
    tasks:type("draft", "Tea")
    tasks:tap("add")
    local again = ss.open("examples/tasks/tasks.lua", { state = tasks.state })
    assert.are.same({ { title = "Tea", done = false } }, again.state.tasks)
    local tea = tasks.state.tasks[1]
    local mixed = { draft = "", tasks = { tea, { title = "Cake", done = true } } }
    local third = ss.open("examples/tasks/tasks.lua", { state = mixed })
    assert.are.same({ { title = "Tea", done = false }, { title = "Cake", done = true } }, third.state.tasks)
    assert.is_true(rawequal(tea, rawget(mixed.tasks, 1)))   -- the caller's table is left as it was
    -- A table reached twice gets the same plain copy both times.
    local shared = { tea }
    local holder = ss.open("screens/holder.lua", { state = { a = shared, b = { list = shared } } })
    assert.are.same({ { title = "Tea", done = false } }, holder.state.a)
    assert.are.same({ { title = "Tea", done = false } }, holder.state.b.list)
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
