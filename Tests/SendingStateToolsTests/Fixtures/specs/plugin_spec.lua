-- Opens a screen that builds ui.stars without naming a plugin: it passes only when the run
-- gives the rating plugin (sendingstate test --plugin …).
local ss = require "sendingstate"

describe("a screen with a plugin from the command line", function()
  it("builds the plugin's component", function()
    local screen = ss.open("../../../../examples/plugins/rating/demo.lua")
    screen:tap("mine.less")
    assert.are.equal(2, screen.state.rating)
    assert.are.equal("★★☆☆☆", screen.view["mine.stars"].text)
  end)
end)
