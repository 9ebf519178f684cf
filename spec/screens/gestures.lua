-- Every gesture with its default states: each callback logs the phase it was called in.
local kinds = { "tap", "longPress", "swipe", "pan", "pinch", "rotation", "screenEdge", "hover" }
return {
  state = { log = {} },
  schema = { log = { "string" } },
  layout = function(ui)
    local views = {}
    for i, kind in ipairs(kinds) do views[i] = ui.view { id = kind } end
    return ui.stack { id = "root", table.unpack(views) }
  end,
  configure = function() end,
  events = function(view, on)
    for _, kind in ipairs(kinds) do
      on(view[kind], kind, function(_, _, phase) return { type = "got", what = kind .. " " .. phase } end)
    end
  end,
  handle = function(action, store)
    store:update(function(s) s.log[#s.log + 1] = action.what end)
  end,
}
