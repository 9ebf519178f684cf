-- Host tasks: `locate` asks the host app's "geocode" task where a place is; its answer (or its
-- failure) comes back as an action. A newer locate replaces the one under way.
return {
  state = { place = "", at = "", problem = "" },
  schema = { place = "string", at = "string", problem = "string" },
  layout = function(ui) return ui.label { id = "at" } end,
  configure = function(view, state) view.at.text = state.at end,
  reduce = function(state, action)
    if action.type == "locate" then
      return { place = action.place, at = "", problem = "" }, {
        { run = "geocode", input = { place = action.place }, ok = "located", fail = "failed",
          id = "geo", replace = true },
      }
    elseif action.type == "located" then
      return { place = state.place, at = action.value.lat .. "," .. action.value.lon, problem = "" }
    elseif action.type == "failed" then
      return { place = state.place, at = "", problem = action.error }
    end
  end,
}
