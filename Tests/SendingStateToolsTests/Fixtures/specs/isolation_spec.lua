-- One file whose tests fail in every way but one; each must fail alone. Line numbers matter.
local ss = require "sendingstate"

describe("isolation", function()
  it("raises an error", function()
    error("boom")                                   -- line 6
  end)

  it("loops for ever", function()
    local n = 0
    while true do n = n + 1 end                     -- line 11
  end)

  it("prints and passes", function()
    print("hello from the test")
    io.write("and io.write too\n")
  end)

  it("overruns a screen's instruction budget", function()
    local screen = ss.open("loop_screen.lua")
    screen:tap("spin")                              -- line 21
  end)

  it("sees an effect's error when settling", function()
    local screen = ss.open("effect_error_screen.lua")
    screen:tap("start")
    screen:settle()                                 -- line 27
  end)

  it("still runs after all that", function()
    assert.are.equal(2, 1 + 1)
  end)
end)
