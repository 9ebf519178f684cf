-- Fake answers for store:fetch: no network, and no waiting beyond the effect itself.
local ss = require "sendingstate"
local url = "https://api.example.com/items"

describe("a screen with fake fetches", function()
  it("gets the fake answer as the ok action, with its json", function()
    local screen = ss.open("screens/fetching.lua", { fetch = { [url] = { json = { items = { "tea", "cake" } } } } })
    screen:tap("load")
    screen:settle()
    assert.are.same({ "tea", "cake" }, screen.state.items)
    assert.are.equal("2 items", screen.view.count.text)
  end)

  it("sends a non-2xx answer to the fail action, with its status", function()
    local screen = ss.open("screens/fetching.lua", { fetch = { [url] = { status = 404, body = "not here" } } })
    screen:tap("load")
    screen:settle()
    assert.are.equal(404, screen.state.status)
    assert.are.equal("the server answered HTTP 404", screen.state.problem)
  end)

  it("fails a fetch with no fake answer, naming the URLs that have one", function()
    local screen = ss.open("screens/fetching.lua", { fetch = { ["https://other.example.com/"] = { body = "" } } })
    screen:tap("load")
    screen:settle()
    assert.are.equal("no fake answer for " .. url .. " (answers for: https://other.example.com/)", screen.state.problem)
  end)

  it("fails the way a network failure would", function()
    local screen = ss.open("screens/fetching.lua", { fetch = { [url] = { error = "timed out" } } })
    screen:tap("load")
    screen:settle()
    assert.are.equal("timed out", screen.state.problem)
  end)
end)
