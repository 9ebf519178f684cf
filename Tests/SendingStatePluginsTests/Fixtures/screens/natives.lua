-- Uses the built-in Swift plugins json and format: each action calls one function with the
-- action's arguments, and the result goes to state.out.
local json = require "json"
local format = require "format"
return {
  state = { out = "" },
  layout = function(ui) return ui.stack { ui.label { id = "out" } } end,
  configure = function(view, state) view.out.text = state.out end,
  handle = function(action, store)
    local out
    if action.type == "encode" then out = json.encode(action.value, action.options)
    elseif action.type == "decode" then out = json.encode(json.decode(action.text))  -- line 12
    elseif action.type == "decoded" then out = json.decode(action.text).x[2]
    elseif action.type == "patch" then json.encode = nil  -- line 14
    elseif action.type == "function" then out = json.encode({ f = print })  -- line 15
    elseif action.type == "parts" then out = json.encode(require("clock").parts(action.a, action.b))
    elseif action.type == "rawpatch" then rawset(json, "encode", print)  -- line 17
    else out = format[action.type](action.a, action.b, action.c)  -- line 18
    end
    store:update(function(s) s.out = tostring(out) end)
  end,
}
