-- Two keys that differ as bytes (and so in Lua) but are one text to Swift: "é" as one
-- scalar and as "e" + a combining accent.
return {
  state = { cart = { ["\u{E9}"] = 1, ["e\u{301}"] = 2 } },
  layout = function(ui) return ui.label { id = "n" } end,
  configure = function(view, state)
    view.n.text = (state.cart["\u{E9}"] or 0) .. "," .. (state.cart["e\u{301}"] or 0)
  end,
}
