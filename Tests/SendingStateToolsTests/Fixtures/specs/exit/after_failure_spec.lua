-- A failing test, then one that tries to end the run as a success. Line numbers matter.
describe("exit", function()
  it("fails", function() assert.are.equal(1, 2) end)
  it("exits with 0", function()
    os.exit(0)                                                     -- line 5
  end)
  it("exits with true", function()
    os.exit(true, true)                                            -- line 8
  end)
  it("runs after the exits", function() end)
end)
