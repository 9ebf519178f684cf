-- Specs for the rating plugin, through the shop's reviews payload.
local ss = require "sendingstate"

describe("rating plugin", function()
  ---@type SSScreen
  local screen
  before_each(function()
    screen = ss.open("../../shop/shop.lua", { data = "../../shop/reviews.json", plugins = { "." } })
  end)

  it("renders review units, with read-only stars from the unit's data", function()
    assert.are.equal("Ana", screen.view["ana.author"].text)
    assert.are.equal("★★★★★", screen.view["ana.given.stars"].text)
    assert.are.equal("★★★☆☆", screen.view["bo.given.stars"].text)
    assert.is_true(screen.view["bo.given.more"].hidden)
  end)

  it("dispatches helpful with the review's id; the shop's own units still work", function()
    screen:tap("bo.helpful")
    screen:tap("matcha.add")
    assert.are.same({ type = "helpful", review = "bo" }, screen.actions[1])
    assert.are.equal(1, screen.state.count)
  end)
end)

describe("without the rating plugin", function()
  it("the reviews are placeholders and the shop still runs", function()
    local screen = ss.open("../../shop/shop.lua", { data = "../../shop/reviews.json" })
    screen:tap("matcha.add")
    assert.are.equal(1, screen.state.count)
  end)
end)

describe("ui.stars on a screen", function()
  it("shows the state's rating and dispatches rate actions the screen applies", function()
    local screen = ss.open("demo.lua", { plugins = { "." } })
    assert.are.equal("★★★☆☆", screen.view["mine.stars"].text)
    screen:tap("mine.more")
    screen:tap("mine.more")
    assert.are.equal(5, screen.state.rating)
    assert.are.equal("★★★★★", screen.view["mine.stars"].text)
    assert.is_false(screen.view["mine.more"].enabled)
    assert.are.same({ type = "rate", field = "rating", by = 1, max = 5 }, screen.actions[1])
  end)
end)
