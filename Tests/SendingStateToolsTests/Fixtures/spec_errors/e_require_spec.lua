-- Compiles, then fails while its file runs (after the other files): a module that is not there (line 2).
local missing = require("no_such_module_for_this_spec")
describe("never registered", function()
  it("is never seen", function() assert.is_nil(missing) end)
end)
