-- The undo screen's invariants: `sendingstate test` checks them after every step of the screens
-- this file opens, and `sendingstate explore undo.lua --spec undo_spec.lua` after every event.
local ss = require "sendingstate"

ss.invariant("the label shows the count", function(state, view)
  return view.count.text == tostring(state.count)
end)

ss.invariant("the count stays positive", function(state)
  return state.count >= 0
end)

describe("undo", function()
  it("counts and undoes", function()
    local screen = ss.open("undo.lua")
    screen:tap("plus")
    screen:tap("undo")
    assert.are.equal(0, screen.state.count)
  end)
end)
