-- The screen's spec: sendingstate test
local ss = require "sendingstate"

describe("the counter", function()
  ---@type SSScreen
  local screen

  before_each(function()
    screen = ss.open("screen.lua")
  end)

  it("starts at zero", function()
    assert.are.equal(0, screen.state.count)
    assert.are.equal("0", screen.view.count.text)
  end)

  it("counts taps", function()
    screen:tap("plus")
    screen:tap("plus")
    assert.are.equal(2, screen.state.count)
    assert.are.same({ { type = "increment" }, { type = "increment" } }, screen.actions)
  end)
end)
