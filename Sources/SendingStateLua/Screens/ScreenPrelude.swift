/// Lua helpers every screen runtime loads once, in the real globals (trusted host code).
enum ScreenPrelude {
  /// Returns a table of helpers: `readonly(value, message)` and `views(map, owner)`.
  static let source = #"""
    local setmetatable, error, type, tostring, next = setmetatable, error, type, tostring, next
    local concat, sort = table.concat, table.sort

    -- A deep read-only view of a plain table. Reads, #, pairs and ipairs work; writes raise
    -- `message` at the writer's line.
    local function readonly(value, message)
      if type(value) ~= "table" then return value end
      local cache = {}
      return setmetatable({}, {
        __index = function(_, key)
          local child = value[key]
          if type(child) ~= "table" then return child end
          local wrapped = cache[key]
          if wrapped == nil then
            wrapped = readonly(child, message)
            cache[key] = wrapped
          end
          return wrapped
        end,
        __newindex = function() error(message, 2) end,
        __len = function() return #value end,
        __readonly = value,  -- what the host reads when the proxy crosses back into Swift
        __pairs = function()
          return function(_, key)
            local nextKey, child = next(value, key)
            if type(child) == "table" then
              local wrapped = cache[nextKey]
              if wrapped == nil then
                wrapped = readonly(child, message)
                cache[nextKey] = wrapped
              end
              child = wrapped
            end
            return nextKey, child
          end, nil, nil
        end,
        __metatable = false,
      })
    end

    -- `view.<id>`: the views of a screen or a row; an unknown id is an error listing the ids.
    local function views(map, owner)
      local ids = {}
      for id in pairs(map) do ids[#ids + 1] = id end
      sort(ids)
      local known = concat(ids, ", ")
      return setmetatable({}, {
        __index = function(_, id)
          local found = map[id]
          if found == nil then
            error("no view with id '" .. tostring(id) .. "' in " .. owner .. " (ids: " .. known .. ")", 2)
          end
          return found
        end,
        __newindex = function(_, id)
          error("cannot replace view '" .. tostring(id) .. "': views are built by layout", 2)
        end,
        __pairs = function() return next, map, nil end,
        __metatable = false,
      })
    end

    -- Calls fn(views, readonly(data, message)) in one protected call from the host.
    local function call(fn, views, data, message)
      return fn(views, readonly(data, message))
    end

    return { readonly = readonly, views = views, call = call }
    """#
}
