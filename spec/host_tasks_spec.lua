-- Host tasks (store:run, or { run = name } from reduce): async work the host app registers by
-- name; specs fake their answers.
local ss = require "sendingstate"

describe("host tasks", function()
  it("runs a registered task with its input; its value comes back as the ok action", function()
    local screen = ss.open("screens/geocode.lua", { tasks = { geocode = { value = { lat = 1.5, lon = 2 } } } })
    screen:expect({ type = "locate", place = "Kyoto" }, function(s) s.place = "Kyoto" end)
    screen:settle()
    screen:receive({ type = "located", value = { lat = 1.5, lon = 2 } }, function(s) s.at = "1.5,2" end)
    assert.are.equal("1.5,2", screen.view.at.text)
  end)

  it("a task's failure comes back as the fail action, with its error", function()
    local screen = ss.open("screens/geocode.lua", { tasks = { geocode = { error = "no such place" } } })
    screen:expect({ type = "locate", place = "Atlantis" }, function(s) s.place = "Atlantis" end)
    screen:settle()
    screen:receive({ type = "failed", error = "no such place" }, function(s) s.problem = "no such place" end)
  end)

  it("a task the host did not register is an error at the call, naming the registered ones", function()
    local screen = ss.open("screens/geocode.lua", { tasks = { weather = { value = 1 } } })
    local ok, problem = pcall(function() screen:expect({ type = "locate", place = "Kyoto" }) end)
    assert.is_false(ok)
    assert.matches("geocode%.lua:%d+: in reduce %(action 'locate'%): bad argument #1 to 'run' "
      .. "%(no task named 'geocode'; the host registered weather%)", problem)
    assert.are.equal("", screen.state.place)
  end)
end)
