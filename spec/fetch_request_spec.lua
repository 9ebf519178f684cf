-- store:fetch with a method, headers and a body, against fake answers: screen.fetches lists
-- what the screen sent, so a spec checks the request as well as what the screen does with
-- the answer.
local ss = require "sendingstate"
local url = "https://api.example.com/login"

describe("a login form that POSTs JSON", function()
  local function signIn(answers)
    local screen = ss.open("screens/login.lua", { fetch = answers })
    screen:type("name", "ada")
    screen:type("password", "s3cret")
    screen:tap("submit")
    screen:settle()
    return screen
  end

  it("sends the method, the headers and the body the screen wrote", function()
    local screen = signIn({ ["POST " .. url] = { json = { token = "t-1" } } })
    assert.are.equal(1, #screen.fetches)
    local sent = screen.fetches[1]
    assert.are.equal(url, sent.url)
    assert.are.equal("POST", sent.method)
    assert.are.same({ ["Content-Type"] = "application/json", Accept = "application/json" }, sent.headers)
    assert.are.equal('{"name":"ada","password":"s3cret"}', sent.body)
    assert.are.equal("t-1", screen.state.token)
    assert.are.equal("signed in", screen.view.status.text)
  end)

  it("an answer by method and URL is not given to a GET of the URL", function()
    local answers = { ["POST https://api.example.com/items"] = { body = "{}" } }
    local screen = ss.open("screens/fetching.lua", { fetch = answers })
    screen:tap("load")
    screen:settle()
    assert.are.equal("GET", screen.fetches[1].method)
    assert.is_nil(screen.fetches[1].body)
    assert.are.equal("no fake answer for https://api.example.com/items"
      .. " (answers for: POST https://api.example.com/items)", screen.state.problem)
  end)

  it("a refusal goes to the fail action with its status", function()
    local screen = signIn({ [url] = { status = 401, body = "wrong password" } })
    assert.are.equal("the server answered HTTP 401", screen.state.problem)
    assert.are.equal("", screen.state.token)
  end)
end)
