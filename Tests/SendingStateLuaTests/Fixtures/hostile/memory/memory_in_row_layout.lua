-- hostile: rows built by an event allocate past the cap in their layout
-- trigger: tap b
-- expect: memory
-- limits: time=none budget=none
return {
  state = { ok = 0, rows = {} },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "status" },
      ui.button { id = "b", title = "b" },
      ui.button { id = "ok", title = "ok" },
      ui.list { id = "items", visibleRows = 3,
        row = function(ui)
          local t = {}
          while true do t[#t + 1] = {} end --@
        end,
      },
    }
  end,
  configure = function(view, state)
    view.status.text = "ok " .. state.ok
    view.items.rows = state.rows
  end,
  events = function(view, on)
    on(view.b, "touchUpInside", function(state, sender)
      return "go"
    end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then
      store:update(function(s) s.ok = s.ok + 1 end)
      return
    end
    store:update(function(s) s.rows = { 1, 2, 3 } end)
  end,
}
