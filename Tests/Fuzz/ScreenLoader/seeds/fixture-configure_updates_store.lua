-- configure tries to update the store it captured from handle.
local captured
return {
  state = { n = 1 },
  layout = function(ui) return ui.stack { id = "root", ui.button { id = "b" } } end,
  configure = function(view, state)
    if captured and state.n == 2 then
      captured:set({ n = 3 })                      -- line 8: store update inside configure
    end
  end,
  events = function(view, on) on(view.b, "touchUpInside", function() return "grab" end) end,
  handle = function(action, store)
    captured = store
    store:set({ n = 2 })
  end,
}
