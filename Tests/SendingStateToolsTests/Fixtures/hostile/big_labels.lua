-- Hostile: one 4 MiB string shown by 60 labels (the host's copies of it, not Lua's heap, are
-- what grows). `tap grow` changes its first bytes, so every step has a new tree (in a cut one too).
local big = string.rep("x", 4 * 1024 * 1024)

return {
  state = { n = 0 },
  schema = { n = "integer" },
  layout = function(ui)
    local labels = {}
    for i = 1, 60 do labels[i] = ui.label { id = "l" .. i } end
    labels[61] = ui.button { id = "grow", title = "grow" }
    labels.id = "root"
    return ui.stack(labels)
  end,
  configure = function(view, state)
    local text = tostring(state.n) .. big
    for i = 1, 60 do view["l" .. i].text = text end
  end,
  events = function(view, on)
    on(view.grow, "touchUpInside", function() return "grow" end)
  end,
  handle = function(action, store)
    store:update(function(s) s.n = s.n + 1 end)
  end,
}
