-- A spec that does not compile (line 3).
describe("x", function()
  it("y", function() end
end)
