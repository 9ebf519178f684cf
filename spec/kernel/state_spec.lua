-- The screen kernel's state module on its own (Sources/CHostCode/kernel/state.lua): frozen
-- trees, drafts and the schema check, loaded in plain Lua with a stand-in for the host's
-- `where` (no script frame here, so messages start at the path).

local root = debug.getinfo(1, "S").source:match("^@(.*)/spec/kernel/[^/]*$") or "."

local support = assert(loadfile(root .. "/spec/kernel/support.lua", "t"))(root)
local loadState, failure = support.loadState, support.failure

describe("kernel state", function()
  local S
  before_each(function() S = loadState() end)

  describe("freeze", function()
    it("copies a plain table deeply into read-only nodes with the same data", function()
      local source = { title = "Cart", items = { { name = "tea", price = 3 }, { name = "jam", price = 4.5 } } }
      local frozen = S.freeze(source, "state")
      assert.are.same(source, S.thaw(frozen))
      assert.are_not.equal(source, frozen)
      assert.are.equal("jam", frozen.items[2].name)
      assert.are.equal(2, #frozen.items)
      source.items[1].name = "coffee"  -- the frozen copy does not follow its source
      assert.are.equal("tea", frozen.items[1].name)
    end)

    -- (Raw writes are the sandbox's to refuse: its rawset knows read-only objects.)
    it("refuses writes and metatable changes", function()
      local frozen = S.freeze({ count = 1, nested = { a = 1 } }, "state")
      S.setReadOnlyMessage("state is read-only here")
      assert.matches("state is read%-only here", failure(function() frozen.count = 2 end))
      assert.matches("state is read%-only here", failure(function() frozen.nested.b = 2 end))
      assert.is_false(getmetatable(frozen))
      assert.has_error(function() setmetatable(frozen, {}) end)
      assert.are.equal(1, frozen.count)
    end)

    it("keeps a frozen node as it is, so versions share what did not change", function()
      local shared = S.freeze({ a = { 1, 2, 3 } }, "state")
      local next = S.freeze({ a = shared.a, b = true }, "state")
      assert.are.equal(shared.a, next.a)
    end)

    it("counts height and size, and a shared table counts each time it appears", function()
      local leaf = { 1, 2 }
      local frozen = S.freeze({ x = leaf, y = leaf }, "state")
      assert.are.equal(2, S.heightOf(frozen))
      assert.are.equal(7, S.sizeOf(frozen))  -- the root, two lists, four numbers
      assert.are.equal(0, S.heightOf(42))
      assert.are.equal(1, S.sizeOf("text"))
    end)

    it("names the path of what is not data", function()
      assert.matches("^state%.items%[2%]%.tap: functions are not data",
        failure(S.freeze, { items = { {}, { tap = print } } }, "state"))
      assert.matches("^state%.ratio: NaN is not a valid value", failure(S.freeze, { ratio = 0 / 0 }, "state"))
      assert.matches("^state%.big: infinity", failure(S.freeze, { big = math.huge }, "state"))
      assert.matches("^state%.low: %-infinity", failure(S.freeze, { low = -math.huge }, "state"))
      assert.matches("^state: table has a non%-string key %(boolean%)", failure(S.freeze, { [true] = 1 }, "state"))
      assert.matches("^state%.list: list has a hole: key 3 with 2 elements",
        failure(S.freeze, { list = { [1] = 1, [3] = 3 } }, "state"))
      assert.matches("^state%.view: a table with a metatable is not data",
        failure(S.freeze, { view = setmetatable({}, {}) }, "state"))
    end)

    it("keeps whole float keys as the integers Lua makes them, and refuses a fractional key", function()
      local frozen = S.freeze({ [1.0] = "a", [2] = "b" }, "state")
      assert.are.same({ "a", "b" }, S.thaw(frozen))
      assert.matches("non%-string key %(number 1%.5%)", failure(S.freeze, { [1.5] = 1 }, "state"))
    end)

    it("refuses a cycle, and accepts the same table twice side by side", function()
      local loop = {}
      loop.self = loop
      assert.matches("^state%.self: the table contains itself", failure(S.freeze, loop, "state"))
      local twice = {}
      assert.has_no.errors(function() S.freeze({ a = twice, b = twice }, "state") end)
    end)

    it("bounds depth and size", function()
      local small = loadState({ maxDepth = 3, maxNodes = 10 })
      assert.has_no.errors(function() small.freeze({ a = { b = { c = 1 } } }, "state") end)
      assert.matches("nested deeper than 3", failure(small.freeze, { a = { b = { c = { d = 1 } } } }, "state"))
      assert.matches("more than 10 values", failure(small.freeze, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }, "state"))
      -- A frozen node nested under more levels is measured by its height, not walked again.
      local deep = small.freeze({ b = { c = 1 } }, "state")
      assert.matches("nested deeper than 3", failure(small.freeze, { x = { y = deep } }, "state"))
    end)
  end)

  describe("update", function()
    it("copies only the path that changed; the rest is the same nodes", function()
      local before = S.freeze({ user = { name = "Ada" }, cart = { items = { "tea" }, total = 3 } }, "state")
      local after = S.update(before, function(draft)
        draft.cart.total = 5
      end, "state")
      assert.are.equal(5, after.cart.total)
      assert.are.equal(3, before.cart.total)
      assert.are.equal(before.user, after.user)
      assert.are.equal(before.cart.items, after.cart.items)
      assert.are_not.equal(before.cart, after.cart)
    end)

    it("gives the same node back when every write keeps the value it had", function()
      local before = S.freeze({ a = 1, nested = { b = "x" } }, "state")
      local after = S.update(before, function(draft)
        draft.a = 1
        draft.nested.b = "x"
      end, "state")
      assert.are.equal(before, after)
    end)

    it("tells 2 from 2.0 (a change JSON and Swift can see)", function()
      local before = S.freeze({ n = 2 }, "state")
      local after = S.update(before, function(draft) draft.n = 2.0 end, "state")
      assert.are_not.equal(before, after)
      assert.are.equal("float", math.type(after.n))
    end)

    it("takes the function's table result in place of the draft", function()
      local before = S.freeze({ a = 1 }, "state")
      local after = S.update(before, function() return { b = 2 } end, "state")
      assert.are.same({ b = 2 }, S.thaw(after))
    end)

    it("revokes the drafts when the update ends", function()
      local kept
      S.update(S.freeze({ a = { b = 1 } }, "state"), function(draft) kept = draft.a end, "state")
      assert.matches("belongs to a store:update that has ended", failure(function() return kept.b end))
    end)

    it("hands the function a plain top level: pairs and # work; a copy kept past the update changes nothing", function()
      local before = S.freeze({ a = 1, b = 2, list = { 1, 2, 3 } }, "state")
      local kept, seen, length
      local after = S.update(before, function(state)
        kept, seen, length = state, {}, #state.list
        for key in pairs(state) do seen[#seen + 1] = key end
        state.a = 10
      end, "state")
      table.sort(seen)
      assert.are.same({ "a", "b", "list" }, seen)
      assert.are.equal(3, length)
      kept.a, kept.b = 99, 99  -- the script's copy, not the state's data
      assert.are.same({ a = 10, b = 2, list = { 1, 2, 3 } }, S.thaw(after))
      assert.are.equal(1, before.a)
    end)

    it("checks a top level whose keys changed whole, and refuses the top level inside itself", function()
      local before = S.freeze({ a = 1, b = 2 }, "state")
      local after = S.update(before, function(state)
        state.b = nil
        state.c = { 3 }
      end, "state")
      assert.are.same({ a = 1, c = { 3 } }, S.thaw(after))
      assert.matches("^state: table has a non%-string key %(boolean%)", failure(S.update, before, function(state)
        state[true] = 1
      end, "state"))
      assert.matches("the table contains itself", failure(S.update, before, function(state)
        state.me = state
      end, "state"))
      -- (A failed update leaves nothing behind: the next one works.)
      assert.are.equal(5, S.update(before, function(state) state.a = 5 end, "state").a)
    end)

    it("counts how deep a draft's node lands: one branch put inside another cannot grow past maxDepth", function()
      local deep = { v = 1 }
      for _ = 1, 18 do deep = { x = deep } end
      local before = S.freeze({ a = deep, b = { c = 1 } }, "state")
      assert.matches("^state%.b%.c%.y%.z: nested deeper than 20", failure(S.update, before, function(state)
        state.b.c = { y = { z = state.a } }
      end, "state"))
      local grown, message = S.freeze({ a = { v = 1 }, b = { v = 2 } }, "state"), nil
      for _ = 1, 30 do
        local ok, result = pcall(S.update, grown, function(state) state.b.c = { z = state.a } end, "state")
        if ok then ok, result = pcall(S.update, result, function(state) state.a.c = { z = state.b } end, "state") end
        if not ok then message = result break end
        grown = result
      end
      assert.matches("nested deeper than 20", message)
      assert.is_true(S.heightOf(grown) <= 20)
    end)

    it("names a new key that is not a string before its value, and refuses a draft inside itself", function()
      local before = S.freeze({ a = { x = 1 } }, "state")
      assert.matches("^state: table has a non%-string key %(boolean%)", failure(S.update, before, function(state)
        state[true] = print
      end, "state"))
      assert.matches("^state%.a%.x: the table contains itself", failure(S.update, before, function(state)
        state.a.x = state.a
      end, "state"))
    end)

    it("revokes the drafts of an update that failed: a kept one can neither be written nor placed", function()
      local before = S.freeze({ b = { x = 1 }, c = { x = 0 } }, "state")
      local kept
      assert.is_false(pcall(S.update, before, function(state)
        kept = state.b
        kept.x = 2
        return { kept, print }  -- (frozen in order: kept is finished before print fails)
      end, "state"))
      assert.matches("belongs to a store:update that has ended", failure(function() kept.x = "str" end))
      assert.matches("^state%.c: this draft belongs to a store:update that has ended",
        failure(S.update, before, function(state) state.c = kept end, "state"))
      assert.are.equal(1, before.b.x)
    end)

    it("checks only the changed keys of a top level with the same keys, and counts its size", function()
      local schema = S.compileSchema({ a = "integer", b = "string" })
      local before = S.freeze({ a = 1, b = "x" }, "state")
      S.validate(before, schema)
      local after = S.update(before, function(state) state.a = "one" end, "state")
      assert.matches("^state%.a: expected integer, got string \"one\"", failure(S.validate, after, schema))
      local grown = S.update(before, function(state) state.a = { 1, 2, 3 } end, "state")
      assert.are.equal(S.sizeOf(before) + 3, S.sizeOf(grown))
      assert.are.equal(2, S.heightOf(grown))
    end)

    it("checks what the function wrote, at its path", function()
      local before = S.freeze({ items = { { price = 1 } } }, "state")
      assert.matches("^state%.items%[1%]%.price: NaN", failure(S.update, before, function(draft)
        draft.items[1].price = 0 / 0
      end, "state"))
      assert.are.equal(1, before.items[1].price)
    end)
  end)

  describe("schema", function()
    local schema
    before_each(function()
      schema = S.compileSchema({
        title = "string", count = "integer", note = "string?", items = { { name = "string" } },
      })
    end)

    it("accepts a state that fits, and one without an optional field", function()
      assert.has_no.errors(function()
        S.validate(S.freeze({ title = "t", count = 2, items = { { name = "a" } } }, "state"), schema)
        S.validate(S.freeze({ title = "t", count = 2.0, note = "n", items = {} }, "state"), schema)
      end)
    end)

    it("names the field that does not fit, and what it expected", function()
      local function problem(state) return failure(S.validate, S.freeze(state, "state"), schema) end
      assert.matches("^state%.count: expected integer, got number 2%.5 %(schema%)",
        problem({ title = "t", count = 2.5, items = {} }))
      assert.matches("^state%.title: missing %(schema: string%)", problem({ count = 1, items = {} }))
      assert.matches("^state%.items%[2%]%.name: expected string, got integer 7",
        problem({ title = "t", count = 1, items = { { name = "a" }, { name = 7 } } }))
      assert.matches("^state%.extra: not in the schema %(fields: count, items, note, title%)",
        problem({ title = "t", count = 1, items = {}, extra = true }))
      -- Of several stray fields, the first in sorted order (the same whatever the table's order).
      assert.matches("^state%.alpha: not in the schema",
        problem({ title = "t", count = 1, items = {}, zeta = 1, alpha = 2, mid = 3 }))
      assert.matches("^state%.items: expected a list, got table",
        problem({ title = "t", count = 1, items = { name = "a" } }))
    end)

    it("refuses a schema it cannot read, naming the schema field", function()
      assert.matches("^schema%.count: unknown type 'int'", failure(S.compileSchema, { count = "int" }))
      assert.matches("^schema: expected a table of field types", failure(S.compileSchema, "string"))
      assert.matches("^schema%.pair: expected a type name",
        failure(S.compileSchema, { pair = { "string", "string" } }))
    end)

    it("after an update, checks the keys that changed (a bad write is still caught)", function()
      local state = S.freeze({ title = "t", count = 1, items = { { name = "a" }, { name = "b" } } }, "state")
      S.validate(state, schema)
      local after = S.update(state, function(draft) draft.items[2].name = false end, "state")
      assert.matches("^state%.items%[2%]%.name: expected string, got boolean", failure(S.validate, after, schema))
    end)
  end)

  describe("pathString", function()
    it("writes paths as a script author reads them, and shortens deep ones", function()
      assert.are.equal("state.items[3].price", S.pathString({ "state", "items", 3, "price" }, 4))
      local deep = { "state", "a", "b", "c", "d", "e", "f", "g", "h", "i" }
      assert.are.equal("state.a.b.c.d…", S.pathString(deep, 10))
    end)
  end)
end)
