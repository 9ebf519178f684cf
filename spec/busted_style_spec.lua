-- busted's full style, on a plain Lua module: hooks and their order, spies, stubs, mocks,
-- matchers, modifiers, errors, tags, insulate/expose, finally, pending. `scripts/test.sh` runs
-- this file with stock busted 2.1.1 too, and both must agree.
local Cart = require "spec.support.cart"
local slashCart = require "spec/support/cart"   -- a slash name finds the same file, as in busted

describe("a cart", function()
  local cart

  before_each(function()
    cart = Cart.new()
  end)

  it("finds a module by a dotted or a slash name (cached under each name, as busted does)", function()
    assert.is_function(slashCart.new)
    assert.are.equal(Cart, package.loaded["spec.support.cart"])
    assert.are.equal(slashCart, package.loaded["spec/support/cart"])
  end)

  it("adds items and totals them #fast", function()
    cart:add("tea", 2.5, 2)
    cart:add("cake", 3)
    assert.are.equal(8, cart:total())
    assert.are.same({ "cake", "tea" }, cart:names())
    assert.is_not.same({ "tea" }, cart:names())
    assert.near(8.0, cart:total(), 1e-9)
  end)

  it("refuses bad items with clear errors", function()
    assert.has_error(function() cart:add("", 1) end, "a cart item needs a name")
    assert.error_matches(function() cart:add("tea", -1) end, "price must be a number")
    assert.has_no.errors(function() cart:add("tea", 0) end)
    assert.matches("^price", "price must be a number ≥ 0")
  end)

  describe("notifications", function()
    it("calls its listener with what changed (spy)", function()
      local listener = spy.new(function() end)
      local watched = Cart.new(listener)
      watched:add("tea", 1)
      watched:add("tea", 1)
      assert.spy(listener).was.called(2)
      assert.spy(listener).was.called_with("added", "tea", 2)
      assert.spy(listener).was_not.called_with("removed", match._, match._)
      assert.spy(listener).was.called_with(match.is_string(), match.is_string(), match.is_number())
    end)

    it("can be stubbed and restored", function()
      stub(cart, "add").returns(42)
      assert.are.equal(42, cart:add("anything", 1))
      assert.stub(cart.add).was.called_with(cart, "anything", 1)
      cart.add:revert()
      assert.are.equal(1, cart:add("tea", 1))
    end)

    it("can be mocked whole", function()
      local api = mock({ add = function() return 1 end, total = function() return 0 end }, true)
      assert.is_nil(api.add("tea", 1))
      assert.stub(api.add).was.called(1)
      assert.stub(api.total).was_not.called()
      mock.revert(api)
    end)
  end)

  it("checks types, truthiness and tables #fast", function()
    assert.is_table(cart)
    assert.is_function(cart.add)
    assert.is_true(cart:total() == 0)
    assert.is_false(cart:total() ~= 0)
    assert.truthy(cart.items)
    assert.falsy(cart.items.tea)
    assert.is_nil(cart.items.tea)
    assert.is.not_nil(cart.items)
    assert.are.unique({ 1, 2, 3 })
    assert.equals("x", ("x"))
  end)

  pending("supports discounts")
end)

-- Hooks run in busted's order. Named so that --sort keeps the order; not shuffled.
describe("hooks", function()
  randomize(false)
  local log = {}
  local function record(event) log[#log + 1] = event end

  setup(function() record("setup") end)
  lazy_setup(function() record("lazy_setup") end)
  teardown(function() record("teardown") end)
  before_each(function() record("before_each") end)
  after_each(function() record("after_each") end)

  it("1 runs a test between before_each and after_each", function()
    record("it")
  end)

  it("2 runs finally after the test body", function()
    local cleaned = false
    finally(function()
      cleaned = true
      record("finally")
    end)
    record("it")
    assert.is_false(cleaned)
  end)

  it("3 ran them in order", function()
    assert.are.same({
      "setup", "lazy_setup",
      "before_each", "it", "after_each",
      "before_each", "it", "finally", "after_each",
      "before_each",
    }, log)
  end)
end)

describe("globals", function()
  randomize(false)   -- the exposed global is seen by the tests after it
  insulate("inside insulate", function()
    it("may set a global", function()
      _G.cart_global = "set"   -- luacheck: ignore
      assert.are.equal("set", _G.cart_global)
    end)
  end)

  it("does not see a global set inside insulate", function()
    assert.is_nil(_G.cart_global)
  end)

  expose("inside expose", function()
    it("sets a global for the rest of the file", function()
      _G.exposed_global = "kept"   -- luacheck: ignore
    end)
  end)

  it("sees the exposed global", function()
    assert.are.equal("kept", _G.exposed_global)
  end)

  it("compares error objects", function()
    assert.has_error(function() error({ code = 7 }) end, { code = 7 })
  end)
end)
