-- The test store's obligations at the end of a test: the first two tests fail, the third passes.
local ss = require "sendingstate"
local screenPath = "Tests/SendingStateToolsTests/Fixtures/timer_screen.lua"

describe("obligations", function()
  it("leaves an action from an effect unreceived", function()
    local screen = ss.open(screenPath, { clock = 0 })
    screen:expect("start")
    screen:advance(1)
  end)

  it("leaves an effect running", function()
    local screen = ss.open(screenPath, { clock = 0 })
    screen:expect("start")
  end)

  it("receives everything", function()
    local screen = ss.open(screenPath, { clock = 0 })
    screen:expect("start")
    screen:advance(1)
    screen:receive("tick", function(s) s.ticks = 1 end)
  end)

  it("does not owe anything without expect or receive", function()
    local screen = ss.open(screenPath, { clock = 0 })
    screen:tap("start")
  end)
end)
