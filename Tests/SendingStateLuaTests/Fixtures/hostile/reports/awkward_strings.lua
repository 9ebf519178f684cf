-- hostile: state and labels full of quotes, backslashes, control characters and bytes that are not UTF-8
-- trigger: tap b
-- expect: ok
-- state: {"ok": 0, "text": "a\"b\\c\n\t\u0001</script>"}
return {
  state = { ok = 0, text = "" },
  layout = function(ui)
    return ui.stack { id = "root", ui.label { id = "status" }, ui.label { id = "echo" }, ui.button { id = "b", title = "b" },
      ui.button { id = "ok", title = "ok" } }
  end,
  configure = function(view, state)
    view.status.text = "ok " .. state.ok
    view.echo.text = state.text .. "\255\254"
  end,
  events = function(view, on)
    on(view.b, "touchUpInside", function() return { type = "set", text = "a\"b\\c\n\t\1</script>" } end)
    on(view.ok, "touchUpInside", function() return "ok" end)
  end,
  handle = function(action, store)
    if action.type == "ok" then store:update(function(s) s.ok = s.ok + 1 end)
    elseif action.type == "set" then store:update(function(s) s.text = action.text end) end
  end,
}
