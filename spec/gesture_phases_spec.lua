-- The phase a gesture callback gets, and the default phases per gesture (as in Swift).
local ss = require "sendingstate"

-- What each recognizer goes through: discrete gestures are recognized at once; continuous ones
-- begin, change and end.
local discrete = { tap = true, swipe = true }

describe("gesture phases", function()
  it("each gesture delivers in its default states, and the callback gets the phase", function()
    local screen = ss.open("screens/gestures.lua")
    for _, kind in ipairs({ "tap", "longPress", "swipe", "pan", "pinch", "rotation", "screenEdge", "hover" }) do
      screen:gesture(kind, kind, { states = discrete[kind] and { "recognized" } or { "began", "changed", "ended" } })
    end
    assert.are.same({
      "tap ended",  -- recognized is ended, as in UIKit
      "longPress began", "longPress ended",
      "swipe ended",
      "pan changed", "pan ended",
      "pinch changed", "pinch ended",
      "rotation changed", "rotation ended",
      "screenEdge ended",
      "hover changed",
    }, screen.state.log)
  end)
end)
