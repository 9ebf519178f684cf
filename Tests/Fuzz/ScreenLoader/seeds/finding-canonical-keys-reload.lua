-- Two keys that are different bytes in Lua ("\u{E9}" and "e\u{301}") but one canonical string in
-- Swift: a hot reload keeps only one of them.
return {
  state = { cart = { ["\u{E9}"] = 1, ["e\u{301}"] = 2 } },
  layout = function(ui) return ui.label { id = "n" } end,
  configure = function(view, state)
    view.n.text = (state.cart["\u{E9}"] or 0) .. "," .. (state.cart["e\u{301}"] or 0)
  end,
}


