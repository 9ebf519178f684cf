-- Specs for the products screen: rows, reuse, favorites, quantities.
local ss = require "sendingstate"

describe("products", function()
  it("toggles a favorite in a row", function()
    local screen = ss.open("products.lua")
    screen:row("items", 2):set("favorite", true)
    assert.is_true(screen.state.items[2].favorite)
    assert.are.equal("1 favorites, total 0.00", screen.view.summary.text)
    assert.are.same({ { type = "favorite", id = "black", on = true } }, screen.actions)
  end)

  it("sets a quantity with the slider", function()
    local screen = ss.open("products.lua")
    screen:row("items", 1):set("quantity", 2)
    assert.are.equal(2, screen.state.items[1].quantity)
    assert.are.equal("0 favorites, total 9.00", screen.view.summary.text)
  end)

  it("reaches rows below the fold (reusing cells)", function()
    local screen = ss.open("products.lua")
    screen:row("items", 12):set("favorite", true)
    assert.is_true(screen.state.items[12].favorite)
    assert.is_true(screen:row("items", 12).view.favorite.isOn)
  end)
end)
