import Foundation
import Testing

@testable import SendingStateLua

/// Errors name the script's file and line, truthfully: a bad field's value at the line that
/// writes it, an error raised inside the host's own Lua at the script line that called it, and a
/// chunk a script loads under the place that loaded it, whatever name it asks for.
@Suite("Error places: every field error has its line; no error blames the host's chunks or a forged file")
@MainActor
struct ErrorPlaceTests {
  func screen(_ text: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-place-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try text.write(toFile: folder + "/screen.lua", atomically: true, encoding: .utf8)
    return folder + "/screen.lua"
  }

  func openError(_ text: String) throws -> ScriptError? {
    let path = try screen(text)
    defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
    do {
      _ = try LuaScreen(path: path)
      return nil
    } catch let error as ScriptError {
      return error
    }
  }

  @Test("a misspelt screen field gets a warning at its line with the field it meant; the screen's own keys do not")
  func misspeltField() throws {
    func warnings(_ text: String) throws -> (path: String, warnings: [String]) {
      let path = try screen(text)
      defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
      let opened = try LuaScreen(path: path)
      defer { opened.close() }
      return (path, opened.warnings)
    }
    let misspelt = try warnings(
      """
      return {
        state = { count = 0 },
        layout = function(ui) return ui.label { id = "l" } end,
        configure = function() end,
        handel = function(action, store) end,
        status = "a screen's own key, two letters from states: warned too",
      }
      """)
    #expect(
      misspelt.warnings == [
        "\(misspelt.path):5: unknown screen field 'handel' (ignored): did you mean 'handle'? (the screen fields are name, state, schema, "
          + "units, layout, configure, events, handle, reduce, states, state_name, state_transition, capabilities, components)",
        "\(misspelt.path):6: unknown screen field 'status' (ignored): did you mean 'states'? (the screen fields are name, state, schema, "
          + "units, layout, configure, events, handle, reduce, states, state_name, state_transition, capabilities, components)",
      ])
    let own = try warnings(
      """
      return {
        state = { count = 0 },
        layout = function(ui) return ui.label { id = "l" } end,
        configure = function() end,
        helpers = { double = function(x) return 2 * x end },
        store = "not the state",
        [1] = "not a field name",
      }
      """)
    #expect(own.warnings.isEmpty, "\(own.warnings)")
  }

  static let plain = """
    layout = function(ui) return ui.label { id = "l" } end,
    configure = function() end,
    """

  @Test("a bad value in a field names the line that writes it")
  func fieldLines() throws {
    let transition = try openError(
      """
      -- a comment with { braces } and state_transition = 1
      local note = "states = { x = 1 }"
      return {
        state = {},
        \(Self.plain)
        states = { warm = { transition = 1 } },
        state_name = function() return "warm" end,
        state_transition = "slow",
      }
      """)
    #expect(transition?.message.hasPrefix("screen field 'state_transition' must be a number of seconds") == true, "\(String(describing: transition))")
    #expect(transition?.line == 9)
    let set = try openError(
      """
      return {
        state = {},
        \(Self.plain)
        states = {
          cold = { set = function() end },
          warm = {
            update = function() end,
            set = 5,
          },
        },
        state_name = function() return "warm" end,
      }
      """)
    #expect(set?.message.hasPrefix("states.warm.set must be a function") == true, "\(String(describing: set))")
    #expect(set?.line == 9)
    let configure = try openError(
      """
      local screen = {
        state = {},
        layout = function(ui) return ui.label { id = "l" } end,
        ["configure"] = 3,
      }
      return screen
      """)
    #expect(configure?.message == "screen field 'configure' must be a function (got number)")
    #expect(configure?.line == 4)
    let capabilities = try openError("return {\n  state = {},\n  \(Self.plain)\n  capabilities = { \"files\" },\n}")
    #expect(capabilities?.message.hasPrefix("screen field 'capabilities'") == true)
    #expect(capabilities?.line == 5)
  }

  @Test("the locator skips comments and strings, long ones included, and reads [\"key\"] =")
  func locator() {
    let source = """
      --[==[ state = { x = "]]" } ]==]
      local a = [[ state = ]] -- state =
      return {
        ["state"] = { [ 'deep' ] = { leaf = 1 } }, ok = a == "x",
      }
      """
    let locator = FieldLocator(source: source)
    #expect(locator.line(of: ["state"]) == 4)
    #expect(locator.line(of: ["state", "deep", "leaf"]) == 4)
    #expect(locator.line(of: ["ok"]) == 4)
    #expect(locator.line(of: ["missing"]) == nil)
    #expect(locator.line(of: ["state", "missing"]) == 4)
  }

  @Test("an error raised inside the sandbox's own Lua blames the script's line, not 'sandbox:NN'")
  func hostChunks() throws {
    for (body, words) in [
      ("load(123)", "bad argument #1 to 'load'"),
      ("print(setmetatable({}, { __tostring = function() return {} end }))", "'__tostring' must return a string"),
      ("math.randomseed('x')", "bad argument #1 to 'randomseed'"),
    ] {
      let error = try openError(
        """
        return {
          state = {},
          layout = function(ui)
            \(body)
            return ui.label { id = "l" }
          end,
          configure = function() end,
        }
        """)
      #expect(error?.message.contains(words) == true, "\(body): \(String(describing: error))")
      #expect(error?.line == 4, "\(body): \(String(describing: error))")
      #expect(error?.chunk?.hasSuffix("screen.lua") == true, "\(body): \(String(describing: error))")
      #expect(error?.description.contains("sandbox:") == false, "\(body): \(String(describing: error))")
    }
  }

  @Test("a chunk a script loads is named after the place that loaded it, whatever name it asks for")
  func loadedNames() throws {
    for name in ["@other.lua", "=kernel.engine", "other.lua", "\u{1B}[2Jx"] {
      let error = try openError(
        """
        return {
          state = {},
          layout = function(ui)
            local f = load("\\n\\nerror('boom')", \(String(reflecting: name).replacingOccurrences(of: "\\u{1B}", with: "\\27")))
            f()
          end,
          configure = function() end,
        }
        """)
      #expect(error?.message == "boom", "\(name): \(String(describing: error))")
      #expect(error?.line == 3, "\(name): \(String(describing: error))")
      #expect(error?.chunk?.contains("screen.lua:4 (load") == true, "\(name): \(String(describing: error))")
      #expect(error?.chunk?.contains("\u{1B}") == false, "\(name): \(String(describing: error))")
    }
  }

  @Test("a message that starts with a position no chunk has (error text, an error object's __tostring) is shown after the real one")
  func forgedPositions() throws {
    for body in [
      #"error("/etc/passwd:99: forged", 0)"#,
      #"error(setmetatable({}, { __tostring = function() return "/etc/passwd:99: forged" end }))"#,
      #"coroutine.wrap(function() error("/etc/passwd:99: forged", 0) end)()"#,
    ] {
      let error = try openError(
        """
        return {
          state = {},
          layout = function(ui)
            \(body)
            return ui.label { id = "l" }
          end,
          configure = function() end,
        }
        """)
      #expect(error?.line == 4, "\(body): \(String(describing: error))")
      #expect(error?.chunk?.hasSuffix("screen.lua") == true, "\(body): \(String(describing: error))")
      #expect(error?.message.contains("/etc/passwd:99: forged") == true, "\(body): \(String(describing: error))")
    }
    // A real position, re-raised as it came, is kept: it names a chunk that was loaded.
    let reraised = try openError(
      """
      return {
        state = {},
        layout = function(ui)
          local ok, message = pcall(function() error("boom") end)
          error(message, 0)
        end,
        configure = function() end,
      }
      """)
    #expect(reraised?.line == 4, "\(String(describing: reraised))")
    #expect(reraised?.message == "boom", "\(String(describing: reraised))")
  }
}
