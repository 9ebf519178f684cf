-- One long string named by a thousand fields of the state: 1 MiB in the script's heap.
return {
  state = { list = {} },
  layout = function(ui) return ui.label { id = "n" } end,
  configure = function(view, state) view.n.text = tostring(#state.list) end,
  handle = function(_, store)
    local big = string.rep("y", 1 << 20)
    store:update(function(s) for i = 1, 1000 do s.list[i] = big end end)
  end,
}
