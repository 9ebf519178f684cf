-- The plugin's spec: sendingstate test <this folder>
local ss = require "sendingstate"

describe("PLUGIN_NAME", function()
  it("shows the field and bumps it", function()
    local screen = ss.open("demo.lua", { plugins = { "." } })
    assert.are.equal("Clicks: 0", screen.view["clicks.text"].text)
    screen:tap("clicks.bump")
    assert.are.equal(1, screen.state.count)
    assert.are.equal("Clicks: 1", screen.view["clicks.text"].text)
  end)
end)
