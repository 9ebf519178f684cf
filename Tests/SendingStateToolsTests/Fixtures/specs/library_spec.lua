-- The library functions `sendingstate test` replaces (to bound them) behave as Lua 5.4's own:
-- this file passes under stock busted and under the runner alike.
local function fails(pattern, f, ...)
  local ok, message = pcall(f, ...)
  assert.is_false(ok)
  assert.is_truthy(tostring(message):find(pattern), tostring(message))
end

describe("library", function()
  it("string.rep", function()
    assert.are.equal("", string.rep("ab", 0))
    assert.are.equal("", string.rep("ab", -3))
    assert.are.equal("ababab", string.rep("ab", 3))
    assert.are.equal("ab, ab, ab", string.rep("ab", 3, ", "))
    assert.are.equal("ab", string.rep("ab", 1, ", "))
    assert.are.equal(",,", string.rep("", 3, ","))
    assert.are.equal("xyxy", ("xy"):rep(2))
    fails("resulting string too large", string.rep, "ab", math.maxinteger)
  end)

  it("table.move", function()
    assert.are.same({ 1, 1, 2, 3 }, table.move({ 1, 2, 3, 4 }, 1, 3, 2))  -- overlapping, upwards
    assert.are.same({ 2, 3, 4, 4 }, table.move({ 1, 2, 3, 4 }, 2, 4, 1))  -- overlapping, downwards
    local target = { "a" }
    assert.are.equal(target, table.move({ 1, 2 }, 1, 2, 2, target))
    assert.are.same({ "a", 1, 2 }, target)
    assert.are.same({ 1 }, table.move({ 1 }, 3, 2, 1))  -- nothing to move
    fails("destination wrap around", table.move, {}, 1, math.maxinteger, 2)
    fails("too many elements to move", table.move, {}, -1, math.maxinteger, 1)
    fails("table expected", table.move, 1, 1, 2, 1)
  end)

  it("table.concat", function()
    assert.are.equal("a,b,c", table.concat({ "a", "b", "c" }, ","))
    assert.are.equal("abc", table.concat({ "a", "b", "c" }))
    assert.are.equal("1-2.5", table.concat({ 1, 2.5 }, "-"))
    assert.are.equal("b,c", table.concat({ "a", "b", "c" }, ",", 2))
    assert.are.equal("b", table.concat({ "a", "b", "c" }, ",", 2, 2))
    assert.are.equal("", table.concat({ "a" }, ",", 3, 2))
    local proxy = setmetatable({}, { __index = function(_, i) return "v" .. i end, __len = function() return 3 end })
    assert.are.equal("v1v2v3", table.concat(proxy))
    fails("invalid value %(table%) at index 2 in table for 'concat'", table.concat, { "a", {} })
  end)

  it("table.insert and table.remove", function()
    local t = { "a", "c" }
    table.insert(t, "d")
    table.insert(t, 2, "b")
    assert.are.same({ "a", "b", "c", "d" }, t)
    table.insert(t, 5, "e")
    assert.are.same({ "a", "b", "c", "d", "e" }, t)
    fails("position out of bounds", table.insert, t, 7, "x")
    fails("wrong number of arguments to 'insert'", table.insert, t, 1, 2, 3)
    assert.are.equal("e", table.remove(t))
    assert.are.equal("a", table.remove(t, 1))
    assert.are.same({ "b", "c", "d" }, t)
    assert.is_nil(table.remove({}))
    assert.is_nil(table.remove({}, 0))
    fails("position out of bounds", table.remove, { 1 }, 5)
  end)

  it("pcall and xpcall", function()
    assert.are.same({ true, 1, 2 }, { pcall(function(a, b) return a, b end, 1, 2) })
    local ok, message = pcall(error, { code = 7 })
    assert.is_false(ok)
    assert.are.same({ code = 7 }, message)
    local handled = { xpcall(function() error("boom", 0) end, function(m) return "handled " .. m end) }
    assert.are.same({ false, "handled boom" }, handled)
    assert.are.same({ true, 3 }, { xpcall(function(a) return a end, print, 3) })
    fails("bad argument #2 to 'xpcall'", xpcall, print)
    -- Both let a coroutine yield across them.
    local co = coroutine.wrap(function()
      pcall(function() coroutine.yield(1) end)
      xpcall(function() coroutine.yield(2) end, print)
      return 3
    end)
    assert.are.same({ 1, 2, 3 }, { co(), co(), co() })
  end)

  it("coroutines", function()
    local co = coroutine.create(function(a) local b = coroutine.yield(a * 2) return b + 1 end)
    assert.are.same({ true, 4 }, { coroutine.resume(co, 2) })
    assert.are.same({ true, 11 }, { coroutine.resume(co, 10) })
    assert.are.equal("dead", coroutine.status(co))
    assert.are.same({ false, "cannot resume dead coroutine" }, { coroutine.resume(co) })
    local failing = coroutine.wrap(function() error("inside") end)
    local ok, message = pcall(failing)
    assert.is_false(ok)
    assert.is_truthy(message:find("library_spec.lua:%d+: inside$"), message)
  end)

  it("patterns and sorting", function()
    assert.are.same({ "k", "v" }, { ("k=v"):match("(%w+)=(%w+)") })
    assert.are.equal("x-y", ("x y"):gsub(" ", "-"), nil)
    local words = {}
    for word in ("a bb ccc"):gmatch("%a+") do words[#words + 1] = word end
    assert.are.same({ "a", "bb", "ccc" }, words)
    local t = { 5, 2, 8, 1 }
    table.sort(t)
    assert.are.same({ 1, 2, 5, 8 }, t)
    table.sort(t, function(a, b) return a > b end)
    assert.are.same({ 8, 5, 2, 1 }, t)
    assert.are.same({ 1, 2, 3 }, { table.unpack({ 1, 2, 3 }) })
    assert.are.same({ 104, 105 }, { ("hi"):byte(1, 2) })
    assert.are.equal(2, utf8.len("é!"))
  end)
end)
