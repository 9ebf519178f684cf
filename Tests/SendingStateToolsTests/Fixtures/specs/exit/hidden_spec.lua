-- Passing tests that call os.exit where its error is caught (a pcall, a coroutine). Line numbers matter.
describe("hidden exits", function()
  it("catches the error of os.exit", function()
    pcall(os.exit, 0)                                              -- line 4
  end)
  it("exits from a coroutine", function()
    local co = coroutine.create(function() os.exit(0) end)        -- line 7
    coroutine.resume(co)
  end)
end)
