-- Output printed by tests and by the screens they open.
local ss = require "sendingstate"

describe("printing", function()
  it("prints from the spec", function()
    print("from the spec")
  end)

  it("prints from a screen", function()
    ss.open("printing_screen.lua")
  end)
end)
