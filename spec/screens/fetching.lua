-- Loads items over HTTP: `load` fetches, `loaded` keeps the items, `failed` the error; `loading`
-- is true in between. `search` fetches the same URL after a 0.5 s debounce (a search field's way);
-- `misplaced` gives the debounce with the action names, where it does not belong.
return {
  state = { items = {}, problem = "", status = 0, loading = false },
  schema = { items = "table", problem = "string", status = "integer", loading = "boolean" },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.button { id = "load", title = "Load" },
      ui.button { id = "misplaced", title = "Load, with its options in the wrong place" },
      ui.textfield { id = "query" },
      ui.label { id = "count" },
    }
  end,
  configure = function(view, state)
    view.count.text = state.loading and "loading…" or (#state.items .. " items")
  end,
  events = function(view, on)
    on(view.load, "touchUpInside", function() return "load" end)
    on(view.misplaced, "touchUpInside", function() return "misplaced" end)
    on(view.query, "editingChanged", function(_, sender) return { type = "search", text = sender.text } end)
  end,
  handle = function(action, store)
    if action.type == "load" or action.type == "search" then
      store:update(function(s) s.loading = true end)
      local options = action.type == "search" and { id = "search", debounce = 0.5 } or nil
      store:fetch("https://api.example.com/items", { ok = "loaded", fail = "failed" }, options)
    elseif action.type == "misplaced" then
      store:fetch("https://api.example.com/items", { ok = "loaded", fail = "failed", debounce = 0.5 })
    elseif action.type == "loaded" then
      store:update(function(s) s.items = action.json.items; s.loading = false end)
    elseif action.type == "failed" then
      store:update(function(s) s.problem = action.error; s.status = action.status or 0; s.loading = false end)
    end
  end,
}
