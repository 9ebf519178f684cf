/// The Lua side of `sendingstate test`: describe/it/hooks, assertions and the screen driver.
enum SpecFramework {
  /// Returns `install(env, prims)`, which puts the spec API into `env` and returns `run(report)`.
  static let source = #"""
    local pcall, error, type, tostring, pairs, ipairs, setmetatable, select = pcall, error, type, tostring, pairs, ipairs, setmetatable, select
    local concat, sort, insert, format, rep = table.concat, table.sort, table.insert, string.format, string.rep
    local baseAssert = assert

    local function show(value, depth)
      depth = depth or 0
      if type(value) == "string" then return format("%q", value) end
      if type(value) ~= "table" then return tostring(value) end
      if depth > 4 then return "{…}" end
      local keys = {}
      for key in pairs(value) do keys[#keys + 1] = key end
      sort(keys, function(a, b)
        if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
        return type(a) < type(b)
      end)
      local parts = {}
      for _, key in ipairs(keys) do
        local label = type(key) == "string" and key:match("^[%a_][%w_]*$") and key or ("[" .. show(key) .. "]")
        parts[#parts + 1] = label .. " = " .. show(value[key], depth + 1)
      end
      return "{ " .. concat(parts, ", ") .. " }"
    end

    local function same(a, b)
      if a == b then return true end
      if type(a) ~= "table" or type(b) ~= "table" then return false end
      for key, value in pairs(a) do if not same(value, b[key]) then return false end end
      for key in pairs(b) do if a[key] == nil then return false end end
      return true
    end

    local function fail(name, expected, actual)
      error(format("%s failed\n    expected: %s\n    actual:   %s", name, show(expected), show(actual)), 3)
    end

    local function stripPosition(message)
      if type(message) ~= "string" then return tostring(message) end
      return (message:gsub("^[^\n]-:%d+: ", ""))
    end

    local function install(env, prims)
      local root = { children = {}, before = {}, after = {} }
      local current = root

      env.describe = function(name, body)
        local block = { name = tostring(name), children = {}, before = {}, after = {}, parent = current }
        insert(current.children, block)
        local saved = current
        current = block
        body()
        current = saved
      end
      env.it = function(name, body)
        insert(current.children, { name = tostring(name), body = body, parent = current })
      end
      env.pending = function(name)
        insert(current.children, { name = tostring(name), pending = true, parent = current })
      end
      env.before_each = function(body) insert(current.before, body) end
      env.after_each = function(body) insert(current.after, body) end

      local checks = {
        equal = function(expected, actual) if expected ~= actual then fail("assert.are.equal", expected, actual) end end,
        same = function(expected, actual) if not same(expected, actual) then fail("assert.are.same", expected, actual) end end,
      }
      local negated = {
        equal = function(expected, actual) if expected == actual then fail("assert.are_not.equal", "not " .. show(expected), actual) end end,
        same = function(expected, actual) if same(expected, actual) then fail("assert.are_not.same", "not " .. show(expected), actual) end end,
      }
      local assertions = {
        are = checks, are_not = negated, equal = checks.equal, same = checks.same, equals = checks.equal,
        is_true = function(value) if value ~= true then fail("assert.is_true", true, value) end end,
        is_false = function(value) if value ~= false then fail("assert.is_false", false, value) end end,
        is_nil = function(value) if value ~= nil then fail("assert.is_nil", nil, value) end end,
        is_not_nil = function(value) if value == nil then fail("assert.is_not_nil", "a value", nil) end end,
        truthy = function(value) if not value then fail("assert.truthy", "a truthy value", value) end end,
        falsy = function(value) if value then fail("assert.falsy", "a falsy value", value) end end,
        has_error = function(body, message)
          local ok, raised = pcall(body)
          if ok then error("assert.has_error failed: the function raised no error", 2) end
          if message ~= nil and stripPosition(raised) ~= message then
            fail("assert.has_error", message, stripPosition(raised))
          end
        end,
      }
      assertions.is = { ["true"] = assertions.is_true, ["false"] = assertions.is_false, ["nil"] = assertions.is_nil }
      env.assert = setmetatable(assertions, { __call = function(_, ...) return baseAssert(...) end })

      local function hooks(block, field, list)
        if block == nil then return list end
        hooks(block.parent, field, list)
        for _, hook in ipairs(block[field]) do insert(list, hook) end
        return list
      end

      local function fullName(node)
        local names = {}
        while node and node.name do insert(names, 1, node.name); node = node.parent end
        return concat(names, " › ")
      end

      local function runNode(node, report)
        if node.children then
          for _, child in ipairs(node.children) do runNode(child, report) end
          return
        end
        local name = fullName(node)
        if node.pending then report(name, "skipped", nil) return end
        local ok, message = true, nil
        for _, hook in ipairs(hooks(node.parent, "before", {})) do
          if ok then ok, message = pcall(hook) end
        end
        if ok then ok, message = pcall(node.body) end
        local afters = hooks(node.parent, "after", {})
        for i = #afters, 1, -1 do
          local fine, problem = pcall(afters[i])
          if ok and not fine then ok, message = false, problem end
        end
        prims.closeAll()
        report(name, ok and "passed" or "failed", ok and nil or (type(message) == "string" and message or show(message)))
      end

      return function(report) runNode(root, report) end
    end

    -- The screen driver returned by ss.open.
    local function driver(prims, handle, list, index)
      local function act(verb, ...)
        local ok, problem = prims.act(handle, list, index, verb, ...)
        if not ok then error(problem, 3) end
      end
      local methods = {
        tap = function(_, id) act("tap", id) end,
        send = function(_, id, event) act("send", id, event) end,
        set = function(_, id, value) act("set", id, value) end,
        type = function(_, id, text) act("type", id, text) end,
        gesture = function(_, id, kind, params) act("gesture", id, kind, params) end,
        row = function(_, listId, rowIndex) return driver(prims, handle, listId, rowIndex) end,
        -- Waits for the screen's effects (timers, fetches): yields to the host, which awaits them.
        settle = function(_, timeout) coroutine.yield({ "settle", timeout or 10 }) end,
        tree = function() return prims.tree(handle) end,
        close = function() prims.close(handle) end,
      }
      return setmetatable({}, {
        __index = function(_, key)
          if key == "state" then return prims.state(handle) end
          if key == "actions" then return prims.actions(handle) end
          if key == "view" then
            return setmetatable({}, {
              __index = function(_, id)
                return setmetatable({}, {
                  __index = function(_, property)
                    local ok, value = prims.property(handle, list, index, id, property)
                    if not ok then error(value, 2) end
                    return value
                  end,
                  __newindex = function() error("screen.view is read-only: drive the screen with tap/set/type…", 2) end,
                })
              end,
            })
          end
          return methods[key]
        end,
        __newindex = function() error("the screen driver is read-only", 2) end,
      })
    end

    -- Runs `run(report)` in a coroutine; each call of the returned step function resumes it and
    -- returns "done" or what the tests asked the host for (e.g. { "settle", seconds }).
    local function starter(run, report)
      local co = coroutine.create(function() run(report) end)
      return function()
        local ok, request = coroutine.resume(co)
        if not ok then error(request, 0) end
        if coroutine.status(co) == "dead" then return "done" end
        return request
      end
    end

    return { install = install, driver = driver, starter = starter }
    """#
}
