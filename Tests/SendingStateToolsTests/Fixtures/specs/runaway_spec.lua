-- Tests that never end, each in a place the old per-test watchdog did not reach: coroutines and
-- library functions that loop in C. Each must fail alone, naming its line. Line numbers matter.
describe("runaway", function()
  it("loops in a wrapped coroutine", function()
    coroutine.wrap(function() while true do end end)()             -- line 5
  end)

  it("loops in a resumed coroutine", function()
    local co = coroutine.create(function() local n = 0 while true do n = n + 1 end end) -- line 9
    print(coroutine.resume(co))
    print("went on after the coroutine")
  end)

  it("cannot catch its own timeout", function()
    pcall(function() while true do end end)                        -- line 15
    print("went on after pcall")
    while true do end
  end)

  it("cannot run a handler once the time is out", function()
    xpcall(function() while true do end end, function() while true do end end) -- line 21
    print("went on after xpcall")
  end)

  it("moves elements for ever", function()
    table.move({}, 1, math.maxinteger // 2, 2)                     -- line 26
  end)

  it("joins empty strings for ever", function()
    table.concat(setmetatable({}, { __index = table.concat }), "", 1, math.maxinteger) -- line 30
  end)

  it("inserts into a table that lies about its length", function()
    local t = setmetatable({}, { __len = function() return math.maxinteger - 1 end, __index = rawget, __newindex = rawset })
    table.insert(t, 1, "x")                                        -- line 35
  end)

  it("backtracks in a pattern for ever", function()
    local text = string.rep("a", 100000)
    string.find(text, ".-.-.-.-.-.-.-.-b")                         -- line 40
  end)

  it("sorts with a comparator that never answers", function()
    table.sort({ 3, 2, 1 }, function() while true do end end)      -- line 44
  end)

  it("still runs after all that", function()
    local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
    assert.are.equal(2, co(1))
    assert.are.equal(10, co(5))
    assert.are.equal("ababab", string.rep("ab", 3))
    assert.are.equal("a-a-a", string.rep("a", 3, "-"))
    -- Lua's own string.rep copies nothing a billion billion times here (for ever, in C).
    assert.are.equal("", string.rep("", math.maxinteger))
    assert.are.equal("a,b,c", table.concat({ "a", "b", "c" }, ","))
  end)
end)
