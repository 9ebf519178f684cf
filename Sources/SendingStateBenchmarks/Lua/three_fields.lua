-- B1: a 3-field model on 3 labels (the screen's update + configure).
return {
  state = { a = 1, b = 2, c = 3 },
  layout = function(ui)
    return ui.stack { ui.label { id = "a" }, ui.label { id = "b" }, ui.label { id = "c" } }
  end,
  configure = function(view, state)
    view.a.text = tostring(state.a)
    view.b.text = tostring(state.b)
    view.c.text = tostring(state.c)
  end,
  handle = function(action, store)
    store:update(function(s) s.a = s.a + 1 s.b = s.b + 1 s.c = s.c + 1 end)
  end,
}
