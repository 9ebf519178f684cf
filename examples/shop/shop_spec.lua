-- Specs for the server-driven shop.
local ss = require "sendingstate"

describe("shop", function()
  ---@type SSScreen
  local screen
  before_each(function()
    screen = ss.open("shop.lua", { data = "payload.json" })
  end)

  it("renders the units of the payload", function()
    assert.are.equal("Spring tea sale", screen.view["banner1.title"].text)
    assert.are.equal("9.90", screen.view["matcha.price"].text)
  end)

  it("adds to the cart from a unit", function()
    screen:tap("matcha.add")
    screen:tap("oolong.add")
    assert.are.equal(2, screen.state.count)
    assert.are.equal("1", screen.view["matcha.inCart"].text)
    assert.are.equal("2 in cart, total 16.10", screen.view.summary.text)
  end)
end)
