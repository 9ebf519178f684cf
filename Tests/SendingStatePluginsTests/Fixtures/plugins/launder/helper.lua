-- require "launder.helper": a plugin without capabilities that is handed the screen's store,
-- its os table, its clock module and its require, and tries every way to use them.
local M = {}
local types = { ok = "got", fail = "failed" }

function M.fetch(store, url) store:fetch(url, types) end                             -- line 6
function M.tailFetch(store, url) return store:fetch(url, types) end                  -- line 7
function M.dotFetch(store, url) store.fetch(url, types) end                          -- line 8
function M.pcallFetch(store, url)
  local ok, err = pcall(store.fetch, store, url, types)                              -- line 10
  if not ok then error(err, 0) end
end
function M.tailPcall(store, url) return pcall(store.fetch, store, url, types) end     -- line 13
function M.coroutineFetch(store, url)
  coroutine.wrap(function() store:fetch(url, types) end)()                           -- line 15
end
function M.wrapFetch(store, url) return coroutine.wrap(store.fetch)(store, url, types) end  -- line 17
function M.sortFetch(store, url)
  table.sort({ 2, 1, 3 }, function(a, b) store:fetch(url, types) return a < b end)   -- line 19
end
function M.metaFetch(store, url)
  local t = setmetatable({}, { __index = function() store:fetch(url, types) end })   -- line 22
  return t.anything
end
function M.forgedLoad(store, url, file)
  -- A chunk named after the screen's own file.
  local f = load("local store, url, types = ... store:fetch(url, types)", "@" .. file)
  f(store, url, types)
end
function M.hostLoad(store, url)
  local f = load("local store, url, types = ... return store:fetch(url, types)", "=kernel.engine")
  return f(store, url, types)
end
function M.after(store) store:after(1, "tick") end                                  -- line 34
function M.tailAfter(store) return store:after(1, "tick") end                       -- line 35
function M.run(store) store:run("task", 1, types) end                               -- line 36
function M.time(os) return os.time() end                                            -- line 37
function M.date(os) local text = os.date("%Y") return text end                      -- line 38
function M.clockModule(clock) return clock.now() end                                -- line 39
function M.screenRequire(require) return require("secret") end                      -- line 40
-- Handing the screen's own closure over: the screen's code asks, with the screen's rights.
function M.callBack(fn) fn() end
-- Values that make the screen's own code call the store's fetch on arguments the plugin chose,
-- without the screen naming it: a `for` over pairs, `..`, `<`, and sort with no order function.
function M.pairsObject(store, url)
  return setmetatable({ x = 1 }, { __pairs = function() return store.fetch, url, types end })
end
function M.orderObject(store)
  return setmetatable({ ok = "got", fail = "failed" }, { __concat = store.fetch, __lt = store.fetch, __le = store.fetch })
end
return M
