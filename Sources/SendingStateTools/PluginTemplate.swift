import Foundation
import SendingStateLua
import SendingStatePlugins

/// `sendingstate plugins new NAME`: a new plugin folder that passes `plugins check`, `check`
/// and `test` as written — a manifest, a component, a demo screen that uses it, and a spec.
///
/// ```swift
/// let written = try PluginTemplate.write(name: "badge", into: "plugins")   // plugins/badge/…
/// ```
public enum PluginTemplate {
  /// The files of plugin `name`, by path inside its folder.
  public static func files(name: String) -> [(String, String)] {
    [
      ("plugin.lua", manifest(name)), ("components/\(name).lua", component(name)), ("demo.lua", demo(name)),
      ("\(name)_spec.lua", spec(name)),
    ]
  }

  static func manifest(_ name: String) -> String {
    """
    -- The \(name) plugin's manifest. Check it with: sendingstate plugins check <this folder>
    return {
      name = "\(name)",
      version = "0.1.0",
      api_version = "\(LuaScreen.apiVersion)",   -- the host API it is written for
      description = "A \(name) component: a label and a button.",
      provides = {
        components = { "\(name)" },   -- components/\(name).lua, built with ui.\(name) { … }
        -- modules = { "util" },       -- util.lua, required as "\(name).util"
        -- units = { "card" },         -- units/card.lua, renders payload units of type "card"
        -- middleware = { "log" },     -- middleware/log.lua, sees every action before handle
      },
      capabilities = {},                -- "timers", net = { "api.example.com" }, …
    }

    """
  }

  static func component(_ name: String) -> String {
    """
    -- ui.\(name) { id = "…", field = "count", label = "Count" }: shows state[field]; its button
    -- dispatches { type = "bump", field = field }, which the screen's handle applies.
    return {
      layout = function(ui)
        return ui.stack { axis = "horizontal", spacing = 4,
          ui.label { id = "text" },
          ui.button { id = "bump", title = "+" },
        }
      end,

      -- props: what the screen wrote in ui.\(name) { … }; state: the screen's (a unit's data
      -- inside a unit).
      configure = function(view, props, state)
        view.text.text = (props.label or props.field) .. ": " .. tostring(state[props.field])
      end,

      -- Callbacks get the props, and return actions.
      events = function(view, on)
        on(view.bump, "touchUpInside", function(props) return { type = "bump", field = props.field } end)
      end,
    }

    """
  }

  static func demo(_ name: String) -> String {
    """
    -- A screen that uses ui.\(name):
    --   sendingstate run demo.lua --plugin . --send 'tap clicks.bump'
    return {
      name = "\(name) demo",
      state = { count = 0 },
      schema = { count = "integer" },

      layout = function(ui)
        return ui.stack { id = "root", axis = "vertical",
          ui.\(name) { id = "clicks", field = "count", label = "Clicks" },
        }
      end,

      configure = function() end,

      handle = function(action, store)
        if action.type == "bump" then
          store:update(function(s) s[action.field] = s[action.field] + 1 end)
        end
      end,
    }

    """
  }

  static func spec(_ name: String) -> String {
    """
    -- The plugin's spec: sendingstate test <this folder>
    local ss = require "sendingstate"

    describe("\(name)", function()
      it("shows the field and bumps it", function()
        local screen = ss.open("demo.lua", { plugins = { "." } })
        assert.are.equal("Clicks: 0", screen.view["clicks.text"].text)
        screen:tap("clicks.bump")
        assert.are.equal(1, screen.state.count)
        assert.are.equal("Clicks: 1", screen.view["clicks.text"].text)
      end)
    end)

    """
  }

  /// Writes plugin `name` into `folder/name/`; never overwrites.
  ///
  /// - Returns: the paths written.
  /// - Throws: ``ToolError/usage(_:)`` for a name a plugin cannot have, an existing folder, or
  ///   a folder that cannot be written.
  @MainActor
  public static func write(name: String, into folder: String) throws -> [String] {
    guard ManifestReader.isIdentifier(name) else {
      throw ToolError.usage("'\(name)' cannot name a plugin: use lower case letters, digits and _, starting with a letter")
    }
    if name == PluginGrants.screenName || BuiltInPlugins.all.contains(where: { $0.name == name }) {
      throw ToolError.usage("'\(name)' is taken (a built-in plugin, or the name --grant uses for the screen); pick another name")
    }
    if LuaHostAPI.viewKinds.contains(where: { $0.name == name }) {
      throw ToolError.usage("'\(name)' is a built-in view kind (ui.\(name)); pick another name for the plugin's component")
    }
    let root = (folder as NSString).appendingPathComponent(name)
    guard !FileManager.default.fileExists(atPath: root) else {
      throw ToolError.usage("'\(root)' already exists; plugins new never overwrites (pick another name or folder)")
    }
    var written: [String] = []
    do {
      for (file, text) in files(name: name) {
        let path = (root as NSString).appendingPathComponent(file)
        try FileManager.default.createDirectory(
          atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        written.append(path)
      }
    } catch {
      throw ToolError.usage("cannot write into '\(root)' (\(error.localizedDescription))")
    }
    return written
  }
}
