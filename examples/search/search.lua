-- Search: type to search teas. A query is searched after 0.3 s of quiet typing (debounce), a
-- newer query replaces the search under way, clearing the field cancels it. Written as a pure
-- reducer, with the phases idle / loading / ready / failed.
--
--   sendingstate test examples/search          (the spec fakes the API and the clock)
local API = "https://api.example.com/teas?q="

-- Percent-encodes a query for the URL.
local function encode(text)
  return (text:gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", c:byte()) end))
end

return {
  name = "Search",
  state = { query = "", phase = "idle", results = {}, problem = "" },
  schema = { query = "string", phase = "string", results = { "string" }, problem = "string" },

  layout = function(ui)
    return ui.stack { id = "root", axis = "vertical", spacing = 8,
      ui.textfield { id = "query", placeholder = "Search teas" },
      ui.label { id = "status" },
      ui.list { id = "results", visibleRows = 5,
        row = function(ui) return ui.label { id = "name" } end,
        configure = function(row, name) row.name.text = name end,
      },
    }
  end,

  configure = function(view, state)
    if state.phase == "loading" then
      view.status.text = "Searching…"
    elseif state.phase == "failed" then
      view.status.text = "Could not search: " .. state.problem
    elseif state.phase == "ready" then
      view.status.text = #state.results == 0 and "No teas match." or (#state.results .. " teas")
    else
      view.status.text = "Type to search."
    end
    view.results.hidden = state.phase ~= "ready"
    view.results.rows = state.results
  end,

  events = function(view, on)
    on(view.query, "editingChanged", function(_, sender)
      return { type = "query", text = sender.text }
    end)
  end,

  -- Pure: the next state, and the effects to start.
  reduce = function(state, action)
    if action.type == "query" then
      if action.text == "" then
        return { query = "", phase = "idle", results = {}, problem = "" }, { { cancel = "search" } }
      end
      return { query = action.text, phase = "loading", results = state.results, problem = "" }, {
        { fetch = API .. encode(action.text), ok = "loaded", fail = "failed", id = "search", debounce = 0.3 },
      }
    elseif action.type == "loaded" then
      local names = {}
      for i, tea in ipairs(action.json and action.json.teas or {}) do names[i] = tostring(tea.name) end
      return { query = state.query, phase = "ready", results = names, problem = "" }
    elseif action.type == "failed" then
      return { query = state.query, phase = "failed", results = {}, problem = action.error or "unknown error" }
    end
  end,
}
