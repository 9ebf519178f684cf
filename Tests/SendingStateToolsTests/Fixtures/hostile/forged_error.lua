-- Hostile: text a script controls carries terminal controls and bidi overrides, to erase or
-- reorder the `file:line` printed before it. Every path the CLI prints must show them escaped.
local ESC, CR, RLO = "\27", "\r", "\u{202E}"
local forged = ESC .. "[2K" .. CR .. "other.lua:1: all fine" .. RLO .. "eman" .. "\u{85}" .. "\127"

return {
  state = { note = forged },
  schema = { note = "string" },
  layout = function(ui)
    return ui.stack { id = "root",
      ui.label { id = "note" },
      ui.button { id = "fail", title = forged },
      ui.button { id = "say", title = "say" },
    }
  end,
  configure = function(view, state) view.note.text = state.note end,
  events = function(view, on)
    on(view.fail, "touchUpInside", function() error(forged) end)
    on(view.say, "touchUpInside", function() print(forged) return "say" end)
  end,
  handle = function(action, store)
    store:update(function(s) s.note = s.note .. ESC end)
  end,
}
