local ss = require "sendingstate"

describe("tasks", function()
  it("adds a typed task", function()
    local screen = ss.open("tasks.lua")
    screen:type("draft", "buy tea")
    screen:tap("add")
    assert.are.same({ { title = "buy tea", done = false } }, screen.state.tasks)
    assert.are.equal("", screen.view.draft.text)
    assert.are.equal("1 left", screen.view.left.text)
  end)

  it("ticks a task off in its row", function()
    local screen = ss.open("tasks.lua", {
      state = { draft = "", tasks = { { title = "a", done = false }, { title = "b", done = false } } },
    })
    screen:row("tasks", 2):set("done", true)
    assert.is_true(screen.state.tasks[2].done)
    assert.are.equal("1 left", screen.view.left.text)
  end)

  it("cannot add an empty task", function()
    local screen = ss.open("tasks.lua")
    screen:tap("add")          -- the button is disabled while the draft is empty
    assert.are.same({}, screen.state.tasks)
  end)
end)
