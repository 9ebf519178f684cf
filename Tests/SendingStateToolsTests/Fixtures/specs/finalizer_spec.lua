-- A finalizer that never ends: Lua runs __gc with its hooks off. Line numbers matter.
describe("finalizers", function()
  it("leaves a finalizer that never ends", function()
    setmetatable({}, { __gc = function() while true do end end })  -- line 4
    collectgarbage()
  end)

  it("keeps finalizers that end", function()
    local ran = false
    setmetatable({}, { __gc = function() ran = true end })
    collectgarbage()
    assert.is_true(ran)
  end)
end)
