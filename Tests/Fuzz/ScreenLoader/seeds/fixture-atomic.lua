-- Every lifecycle point of an event can fail here; tests check that a failure changes nothing.
local rows = {}
for i = 1, 30 do rows[i] = { name = "item " .. i, bad = false } end
return {
  state = { n = 0, mode = "ok", items = rows },
  schema = { n = "integer", mode = "string", items = { { name = "string", bad = "boolean" } } },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "count" },
      ui.button { id = "add", title = "add" },
      ui.button { id = "explode", title = "explode" },
      ui.list { id = "items", visibleRows = 3,
        row = function(ui) return ui.label { id = "name" } end,
        configure = function(row, item)
          if item.bad then error("cannot show " .. item.name) end
          row.name.text = item.name
        end,
      },
    }
  end,
  configure = function(view, state)
    view.count.text = tostring(state.n)
    view.add.title = "add " .. state.n
    if state.mode == "configure" then error("configure failed after writing") end
    if state.mode == "spin" then while true do end end
    view.items.rows = state.items
  end,
  events = function(view, on)
    on(view.add, "touchUpInside", function() return "add" end)
    on(view.explode, "touchUpInside", function() error("callback failed") end)
  end,
  handle = function(action, store)
    local t = action.type
    if t == "add" then
      store:update(function(s) s.n = s.n + 1 end)
    elseif t == "update-then-fail" then
      store:update(function(s) s.n = s.n + 10 end)
      error("handler failed after an update")
    elseif t == "fail-in-update" then
      store:update(function(s) s.n = 99; error("update function failed") end)
    elseif t == "schema" then
      store:update(function(s) s.n = "many" end)
    elseif t == "not-data" then
      store:update(function(s) s.n = print end)
    elseif t == "configure" or t == "spin" then
      store:update(function(s) s.n = s.n + 1; s.mode = t end)
    elseif t == "bad-row" then
      store:update(function(s) s.n = s.n + 1; s.items[2].bad = true end)
    elseif t == "chain" then
      store:update(function(s) s.n = s.n + 1 end)
      store:dispatch("chain-2")
    elseif t == "chain-2" then
      store:update(function(s) s.n = s.n + 1 end)
      store:dispatch("chain-3")
    elseif t == "chain-3" then
      error("the third action failed")
    elseif t == "later" then
      store:after(0, "update-then-fail")
    elseif t == "poison-row" then
      store:update(function(s) s.items[20].bad = true end)
    elseif t == "memory" then
      store:update(function(s) s.n = s.n + 1 end)
      local t = {}
      for i = 1, 1e9 do t[i] = ("x"):rep(100) .. i end
    end
  end,
}
