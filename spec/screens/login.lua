-- A login form: `submit` POSTs the name and password as JSON; `signed_in` keeps the token,
-- `refused` the error. No Swift host task: store:fetch sends the request itself.
local json = require "json"

return {
  capabilities = { net = { "api.example.com" } },
  state = { name = "", password = "", token = "", problem = "" },
  schema = { name = "string", password = "string", token = "string", problem = "string" },
  layout = function(ui)
    return ui.stack {
      id = "root",
      ui.textfield { id = "name" },
      ui.textfield { id = "password" },
      ui.button { id = "submit", title = "Sign in" },
      ui.label { id = "status" },
    }
  end,
  configure = function(view, state)
    view.status.text = state.token ~= "" and "signed in" or state.problem
  end,
  events = function(view, on)
    on(view.name, "editingChanged", function(_, sender) return { type = "name", value = sender.text } end)
    on(view.password, "editingChanged", function(_, sender) return { type = "password", value = sender.text } end)
    on(view.submit, "touchUpInside", function() return "submit" end)
  end,
  handle = function(action, store)
    if action.type == "name" then
      store:update(function(s) s.name = action.value end)
    elseif action.type == "password" then
      store:update(function(s) s.password = action.value end)
    elseif action.type == "submit" then
      local form = store.state
      store:fetch("https://api.example.com/login", { ok = "signed_in", fail = "refused" }, {
        id = "login", replace = true,
        method = "POST",
        headers = { ["Content-Type"] = "application/json", Accept = "application/json" },
        body = json.encode({ name = form.name, password = form.password }),
      })
    elseif action.type == "signed_in" then
      store:update(function(s) s.token = action.json.token; s.problem = "" end)
    elseif action.type == "refused" then
      store:update(function(s) s.problem = action.error end)
    end
  end,
}
