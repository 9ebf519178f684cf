-- Picture snapshots: the screen's PNG against __snapshots__/picture_spec/<name>.png, pixel by pixel.
-- `sendingstate test --update-snapshots` records them; a mismatch writes <name>.actual.png and
-- <name>.diff.png beside the snapshot and names them.
local ss = require "sendingstate"

describe("the counter's picture", function()
  it("at the start", function()
    local screen = ss.open("../examples/counter/counter.lua")
    assert.picture_matches(screen, "start")
  end)

  it("at 0, with minus disabled", function()
    local screen = ss.open("../examples/counter/counter.lua", { state = { title = "Tea", count = 0 } })
    assert.picture_matches(screen, "zero", { tolerance = 0.001 })
  end)
end)
