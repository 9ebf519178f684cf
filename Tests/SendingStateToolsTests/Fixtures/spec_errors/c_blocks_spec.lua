-- Errors in each kind of block outside a test body; the tests beside them still run.
describe("a failing describe body", function()
  it("registered before the error", function() end)
  error("describe body failed") -- line 4
end)

describe("a failing before_each", function()
  before_each(function() error("before_each failed") end) -- line 8
  it("never runs its body", function() error("not reached") end)
end)

describe("a failing after_each", function()
  after_each(function() error("after_each failed") end) -- line 13
  it("passes its body", function() end)
end)

describe("a failing setup", function()
  setup(function() error("setup failed") end) -- line 18
  it("is skipped", function() end)
end)

describe("a failing teardown", function()
  teardown(function() error("teardown failed") end) -- line 23
  it("passes", function() end)
end)

describe("no failure", function()
  it("passes too", function() assert.equal(2, 1 + 1) end)
end)
