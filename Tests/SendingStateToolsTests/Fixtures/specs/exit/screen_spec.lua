-- A screen that calls os.exit: screens cannot (a sandbox violation), so the test fails.
local ss = require "sendingstate"
describe("screen exit", function()
  it("taps a button that calls os.exit", function()
    local screen = ss.open("exit_screen.lua")
    screen:tap("quit")
  end)
end)
