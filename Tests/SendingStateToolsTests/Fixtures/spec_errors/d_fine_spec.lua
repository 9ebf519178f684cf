-- A file after the broken ones: it still runs.
describe("the last file", function()
  it("runs", function() assert.is_true(true) end)
end)
