-- Effects with ids: `ping` answers after 1 s (ids: replace, debounce or throttle by action.mode),
-- `stop` cancels them; `log` keeps what arrived.
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
    elseif action.type == "pong" then
      store:update(function(s) s.log[#s.log + 1] = action.name end)
    end
  end,
}
