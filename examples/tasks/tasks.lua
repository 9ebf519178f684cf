-- Tasks: type a task, add it, tick it off.
return {
  name = "Tasks",
  state = { draft = "", tasks = {} },
  schema = { draft = "string", tasks = { { title = "string", done = "boolean" } } },

  layout = function(ui)
    return ui.stack { id = "root", axis = "vertical", spacing = 8,
      ui.stack { id = "entry", axis = "horizontal", spacing = 4,
        ui.textfield { id = "draft", placeholder = "What needs doing?" },
        ui.button { id = "add", title = "Add" },
      },
      ui.list { id = "tasks", visibleRows = 5,
        row = function(ui)
          return ui.stack { axis = "horizontal", spacing = 4,
            ui.switch { id = "done" },
            ui.label { id = "title" },
          }
        end,
        ---@param row Tasks.TasksRow
        ---@param task Tasks.State.TasksItem
        configure = function(row, task)
          row.done.isOn = task.done
          row.title.text = task.title
        end,
        ---@param row Tasks.TasksRow
        ---@param on SSOn
        events = function(row, on)
          on(row.done, "valueChanged", function(task, sender)
            return { type = "toggle", title = task.title, done = sender.isOn }
          end)
        end,
      },
      ui.label { id = "left" },
    }
  end,

  ---@param view Tasks.View
  ---@param state Tasks.State
  configure = function(view, state)
    view.draft.text = state.draft
    view.add.enabled = state.draft ~= ""
    view.tasks.rows = state.tasks
    local left = 0
    for _, task in ipairs(state.tasks) do
      if not task.done then left = left + 1 end
    end
    view.left.text = left .. " left"
  end,

  ---@param view Tasks.View
  ---@param on SSOn
  events = function(view, on)
    on(view.draft, "editingChanged", function(state, sender)
      return { type = "draft", text = sender.text }
    end)
    on(view.add, "touchUpInside", function(state)
      return "add"
    end)
  end,

  handle = function(action, store)
    if action.type == "draft" then
      store:update(function(s) s.draft = action.text end)
    elseif action.type == "add" then
      store:update(function(s)
        s.tasks[#s.tasks + 1] = { title = s.draft, done = false }
        s.draft = ""
      end)
    elseif action.type == "toggle" then
      store:update(function(s)
        for _, task in ipairs(s.tasks) do
          if task.title == action.title then task.done = action.done end
        end
      end)
    end
  end,
}
