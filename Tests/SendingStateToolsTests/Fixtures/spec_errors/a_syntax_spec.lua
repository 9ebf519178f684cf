-- Does not compile: the call on line 3 is never closed (Lua reports line 5).
describe("never runs", function()
  it("is never seen", function()
  end
end)
