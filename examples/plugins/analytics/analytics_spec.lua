-- Specs for the analytics plugin, through its demo screen.
local ss = require "sendingstate"

describe("analytics plugin", function()
  ---@type SSScreen
  local screen
  before_each(function()
    screen = ss.open("demo.lua", { plugins = { "." } })
  end)

  it("counts every action by type before handle sees it", function()
    screen:tap("plus")
    screen:tap("plus")
    screen:tap("minus")
    assert.are.same({ increment = 2, decrement = 1 }, screen.state.analytics)
    assert.are.equal(1, screen.state.count)
    assert.are.equal("decrement 1, increment 2", screen.view.report.text)
  end)

  it("drops private actions: handle never sees them", function()
    screen:tap("secret")
    assert.are.same({}, screen.state.analytics)
    assert.are.equal("nothing yet", screen.view.report.text)
  end)
end)

describe("analytics report module", function()
  it("is not there without the plugin", function()
    assert.has_error(function() ss.open("demo.lua") end)
  end)
end)
