---@meta
-- For scripts/typecheck.sh only, never shipped: stands in for the luassert definitions that
-- LuaLS bundles (the "${3rd}/luassert/library" our .luarc.json names), which emmylua_ls does not
-- have. Without it every `assert.are.equal(…)` in a spec is an undefined field. It types no API
-- of ours: `assert` is luassert's table of assertions, each taking anything, and still a function;
-- the fields types/sendingstate.d.lua adds to luassert (tree_matches) keep their own types.

---@class luassert
---@field [string] any
---@overload fun(v: any, message: any?, ...: any): any

---@type luassert
assert = nil -- luacheck: ignore 121
