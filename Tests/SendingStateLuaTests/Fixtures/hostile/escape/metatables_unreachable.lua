-- hostile: every object the host hands out keeps its metatable to itself
-- trigger: tap b; tap c
-- expect: contained
-- state: {"ok":0}
local kept = {}
local function probe(name, value)
  local ok, meta = pcall(getmetatable, value)
  if ok and type(meta) == "table" then print("ESCAPED: the metatable of " .. name .. " is reachable") end
end
return {
  state = { ok = 0 },
  layout = function(ui)
    kept.ui = ui
    return ui.stack { id = "root",
      ui.label { id = "status" },
      ui.button { id = "b", title = "b" },
      ui.button { id = "ok", title = "ok" },
      ui.button { id = "c", title = "c" },
    }
  end,
  configure = function(view, state)
    view.status.text = "ok " .. state.ok
    kept.view = view; kept.status = view.status
  end,
  events = function(view, on)
    on(view.b, "touchUpInside", function(state, sender)
      return "go"
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
    kept.on = on
    on(view.c, "touchUpInside", function(state, sender)
      probe("state", state)
      probe("sender", sender)
      probe("the views table", kept.view)
      probe("a view", kept.status)
      probe("ui", kept.ui)
      probe("the store", kept.store)
      probe("store.state", kept.storeState)
      probe("a string", "")
      probe("a coroutine", coroutine.create(print))
      probe("the environment", _ENV)
      return nil
    end)
  end,
  handle = function(action, store)
    if action.type == "ok" then
      store:update(function(s) s.ok = s.ok + 1 end)
      return
    end
    kept.store = store
    kept.storeState = store.state
  end,
}
