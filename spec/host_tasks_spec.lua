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

  describe("that take time on the screen's clock", function()
    it("the answer arrives its delay after the task runs; a newer call replaces the one on its way", function()
      local screen = ss.open("screens/geocode.lua",
        { clock = 0, tasks = { geocode = { value = { lat = 3, lon = 4 }, delay = 2 } } })
      screen:expect({ type = "locate", place = "Kyoto" }, function(s) s.place = "Kyoto" end)
      screen:advance(1.5)
      assert.are.equal(1, screen.pending)
      screen:expect({ type = "locate", place = "Nara" }, function(s) s.place = "Nara" end)
      screen:advance(1.5)
      assert.are.equal("", screen.state.at)
      screen:advance(0.5)
      screen:receive({ type = "located", value = { lat = 3, lon = 4 } }, function(s) s.at = "3,4" end)
      assert.are.equal(0, screen.pending)
    end)

    it("a failure takes its delay too", function()
      local screen = ss.open("screens/geocode.lua",
        { clock = 0, tasks = { geocode = { error = "offline", delay = 5 } } })
      screen:expect({ type = "locate", place = "Kyoto" }, function(s) s.place = "Kyoto" end)
      screen:advance(4.9)
      assert.are.equal("", screen.state.problem)
      screen:advance(0.1)
      screen:receive({ type = "failed", error = "offline" }, function(s) s.problem = "offline" end)
    end)

    it("a delay that is not a number of seconds is refused where the screen is opened", function()
      local ok, problem = pcall(ss.open, "screens/geocode.lua", { tasks = { geocode = { value = 1, delay = "2" } } })
      assert.is_false(ok)
      assert.matches("the fake delay of task 'geocode' must be a number of seconds", problem)
    end)
  end)
end)
