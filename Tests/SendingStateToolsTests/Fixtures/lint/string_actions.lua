-- Compares actions with strings: never true (actions are tables). Lines 16, 18 and 19 are
-- reported; the comment on line 20 and the table comparisons on line 17 are not.
return {
  state = { count = 0 },
  layout = function(ui)
    return ui.button { id = "plus", title = "+" }
  end,
  configure = function(view, state)
    view.plus.title = tostring(state.count)
  end,
  events = function(view, on)
    on(view.plus, "touchUpInside", function() return "inc" end)
  end,
  handle = function(act, store)
    store:update(function(s)
      if act == "inc" then s.count = s.count + 1 end
      if act.type == "inc" or act.type ~= 'dec' then s.count = s.count + 1 end
      if 'reset' == act then s.count = 0 end
      if act ~= "noop" then s.count = s.count end
      -- if act == "commented" then … end
    end)
  end,
}
