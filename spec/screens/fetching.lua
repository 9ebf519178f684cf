-- Loads items over HTTP: `load` fetches, `loaded` keeps the items, `failed` the error.
return {
  state = { items = {}, problem = "", status = 0 },
  schema = { items = "table", problem = "string", status = "integer" },
  layout = function(ui)
    return ui.stack { id = "root", ui.button { id = "load", title = "Load" }, ui.label { id = "count" } }
  end,
  configure = function(view, state) view.count.text = #state.items .. " items" end,
  events = function(view, on) on(view.load, "touchUpInside", function() return "load" end) end,
  handle = function(action, store)
    if action.type == "load" then
      store:fetch("https://api.example.com/items", { ok = "loaded", fail = "failed" })
    elseif action.type == "loaded" then
      store:update(function(s) s.items = action.json.items end)
    elseif action.type == "failed" then
      store:update(function(s) s.problem = action.error; s.status = action.status or 0 end)
    end
  end,
}
