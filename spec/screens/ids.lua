-- Effects with ids: `ping` answers after 1 s (ids: replace, debounce or throttle by action.mode),
-- `stop` cancels them; `log` keeps what arrived, with the clock's time.
local clock = require "clock"
return {
  state = { log = {} },
  schema = { log = { "string" } },
  layout = function(ui) return ui.stack { id = "root", ui.label { id = "n" } } end,
  configure = function(view, state) view.n.text = tostring(#state.log) end,
  handle = function(action, store)
    if action.type == "ping" then
      local options = { id = "ping" }
      if action.mode == "replace" then options.replace = true
      elseif action.mode == "debounce" then options.debounce = 0.5
      elseif action.mode == "throttle" then options.throttle = 2; options.latest = action.latest ~= false
      elseif action.mode == "bad" then options = action.options end
      store:after(action.mode == "throttle" and 0 or 1, { type = "pong", name = action.name }, options)
    elseif action.type == "stop" then
      store:cancel("ping")
    elseif action.type == "sly" then
      -- An options table whose metatable answers 0.3 to the first read of debounce and 1e300
      -- to the next: only raw fields count, so it has no debounce at all.
      local reads = 0
      local sly = setmetatable({ id = "ping" }, { __index = function(_, key)
        if key == "debounce" then reads = reads + 1; return reads == 1 and 0.3 or 1e300 end
      end })
      store:after(1, { type = "pong", name = "sly" }, sly)
    elseif action.type == "cancels" then
      for i = 1, action.count do store:cancel(action.unique and ("id" .. i) or "ping") end
      if action.thenStart then store:after(1, { type = "pong", name = "after cancels" }, { id = "ping" }) end
    elseif action.type == "pong" then
      store:update(function(s) s.log[#s.log + 1] = action.name .. "@" .. clock.now() end)
    end
  end,
}
