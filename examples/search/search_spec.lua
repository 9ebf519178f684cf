-- The search screen with a fake API and a virtual clock: no network, no real waiting.
local ss = require "sendingstate"

local teas = {
  ["https://api.example.com/teas?q=green"] = { json = { teas = { { name = "Sencha" }, { name = "Matcha" } } } },
  ["https://api.example.com/teas?q=black%20tea"] = { json = { teas = {} } },
  ["https://api.example.com/teas?q=oops"] = { status = 503, body = "down for maintenance" },
}

local function open() return ss.open("search.lua", { clock = 0, fetch = teas }) end

describe("search", function()
  it("searches after a quiet 0.3 s, only for the last query", function()
    local screen = open()
    screen:expect({ type = "query", text = "gr" }, function(s) s.query = "gr"; s.phase = "loading" end)
    screen:advance(0.2)
    screen:expect({ type = "query", text = "green" }, function(s) s.query = "green" end)
    assert.are.equal("Searching…", screen.view.status.text)
    screen:advance(0.3)
    screen:settle()
    screen:receive({ type = "loaded", status = 200, body = '{"teas":[{"name":"Sencha"},{"name":"Matcha"}]}',
      json = { teas = { { name = "Sencha" }, { name = "Matcha" } } } }, function(s)
      s.phase = "ready"
      s.results = { "Sencha", "Matcha" }
    end)
    assert.are.equal("2 teas", screen.view.status.text)
  end)

  it("moves through its named states; the results fade in over 0.25 s", function()
    local screen = open()
    assert.are.same({ current = "idle" }, screen.named)
    screen:type("query", "green")
    assert.are.same({ current = "loading" }, screen.named)
    screen:advance(0.3)
    screen:settle()
    assert.are.same({ current = "loading", from = "loading", to = "ready" }, screen.named)
    assert.are.equal(0, screen.view.results.alpha)
    assert.are.equal("2 teas", screen.view.status.text)
    screen:advance(0.25)
    assert.are.same({ current = "ready" }, screen.named)
    assert.are.equal(1, screen.view.results.alpha)
  end)

  it("types through the text field like a user", function()
    local screen = open()
    screen:type("query", "black tea")
    screen:advance(0.3)
    screen:settle()
    assert.are.equal("ready", screen.state.phase)
    assert.are.equal("No teas match.", screen.view.status.text)
  end)

  it("clearing the field cancels the search under way", function()
    local screen = open()
    screen:expect({ type = "query", text = "green" }, function(s) s.query = "green"; s.phase = "loading" end)
    screen:expect({ type = "query", text = "" }, function(s) s.query = ""; s.phase = "idle" end)
    screen:advance(1)
    screen:finish()  -- nothing arrived, nothing runs
  end)

  it("shows a failure with the server's status", function()
    local screen = open()
    screen:type("query", "oops")
    screen:advance(0.3)
    screen:settle()
    assert.are.equal("failed", screen.state.phase)
    assert.are.equal("Could not search: the server answered HTTP 503", screen.view.status.text)
  end)
end)
