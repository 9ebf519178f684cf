-- One long string named by a thousand fields (and keys) of the state, or by a thousand
-- actions: 1 MiB in the script's heap.
return {
  state = { list = {}, keyed = {} },
  layout = function(ui) return ui.label { id = "n" } end,
  configure = function(view, state) view.n.text = tostring(#state.list) end,
  handle = function(action, store)
    if action.type == "grow" then
      local big = string.rep("y", 1 << 20)
      store:update(function(s)
        for i = 1, 1000 do
          s.list[i] = big
          s.keyed[i] = { [big] = i }
        end
      end)
    elseif action.type == "shout" then
      local big = string.rep("y", 1 << 20)
      for _ = 1, 900 do store:dispatch({ type = "echo", text = big }) end
    end
  end,
}
