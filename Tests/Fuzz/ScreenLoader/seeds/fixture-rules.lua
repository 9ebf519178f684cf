-- A screen whose actions each break (or respect) one one-way rule. Line numbers matter to tests.
return {
  state = { count = 1, log = {} },
  schema = { count = "integer", log = { "string" } },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "count" },
      ui.button { id = "go", title = "go" },
      ui.button { id = "poke", title = "poke" },
      ui.button { id = "touch", title = "touch" },
    }
  end,
  configure = function(view, state)
    view.count.text = tostring(state.count)
    if state.count == 99 then
      state.count = 100                            -- line 16: writes state in configure
    end
  end,
  events = function(view, on)
    on(view.go, "touchUpInside", function(state) return { type = state.count == 5 and "chain" or "add" } end)
    on(view.poke, "touchUpInside", function(state)
      state.count = 7                              -- line 22: writes state in a callback
    end)
    on(view.touch, "touchUpInside", function(state, sender)
      sender.title = "changed"                     -- line 25: writes a view in a callback
    end)
  end,
  handle = function(action, store)
    local t = action.type
    if t == "add" then
      store:update(function(s) s.count = s.count + 1 end)
    elseif t == "chain" then
      -- Dispatched while handling: queued, handled in order after this one.
      store:dispatch("first")
      store:dispatch({ type = "second" })
      store:update(function(s) s.log[#s.log + 1] = "chain" end)
    elseif t == "first" or t == "second" then
      store:update(function(s) s.log[#s.log + 1] = t end)
    elseif t == "schema" then
      store:update(function(s) s.count = "many" end)       -- line 40: breaks the schema
    elseif t == "boom" then
      store:update(function(s) s.count = s.count + 1; error("handler failed") end) -- line 42
    elseif t == "viewwrite" then
      local _ = store.state.count
      store.state.count = 3                        -- line 45: writes store.state
    elseif t == "badset" then
      store:set(42)                                -- line 47: not a table
    elseif t == "to99" then
      store:set({ count = 99, log = {} })          -- line 49: configure then writes state
    end
  end,
}
