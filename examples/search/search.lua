-- Search: type to search teas. A query is searched after 0.3 s of quiet typing (debounce), a
-- newer query replaces the search under way, clearing the field cancels it. Written as a pure
-- reducer, with the named states idle / loading / ready / failed.
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
        ---@param row Search.ResultsRow
        ---@param name string
        configure = function(row, name) row.name.text = name end,
      },
    }
  end,

  -- The list shows the results; the rest of the screen follows the named state.
  ---@param view Search.View
  ---@param state Search.State
  configure = function(view, state)
    view.results.rows = state.results
  end,

  -- Named states: state_name picks one from the phase. Entering a state runs its set, then its
  -- update; a commit that stays in it runs its update. The results fade in over 0.25 s: ready
  -- becomes current (and its done runs) once that time has passed.
  state_name = function(state) return state.phase end,
  states = {
    idle = {
      set = function(view)
        view.status.text = "Type to search."
        view.results.hidden = true
      end,
    },
    loading = {
      set = function(view)
        view.status.text = "Searching…"
        view.results.alpha = 0.5
      end,
    },
    ready = {
      set = function(view)
        view.results.hidden = false
        view.results.alpha = 0
      end,
      update = function(view, state)
        view.status.text = #state.results == 0 and "No teas match." or (#state.results .. " teas")
      end,
      done = function(view) view.results.alpha = 1 end,
      transition = 0.25,
    },
    failed = {
      set = function(view) view.results.hidden = true end,
      update = function(view, state) view.status.text = "Could not search: " .. state.problem end,
    },
  },

  ---@param view Search.View
  ---@param on SSOn
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
