-- A finalizer that never ends, kept reachable until the state closes: it runs outside any call
-- from the host (at close), where the deadline is read by the count hook. Line numbers matter.
describe("finalizers", function()
  it("keeps a finalizer that never ends for the end of the run", function()
    _G.kept = setmetatable({}, { __gc = function() while true do end end })  -- line 5
  end)
end)
