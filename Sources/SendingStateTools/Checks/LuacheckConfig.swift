/// The `.luacheckrc` for SendingState projects (committed at the repository root, written by
/// `sendingstate init`): screens are checked against the sandbox's globals, specs against Lua 5.4
/// and busted's.
///
/// ```sh
/// luacheck examples spec     # 0 warnings
/// ```
public enum LuacheckConfig {
  /// Globals a sandboxed screen has, with the fields of its library tables (the allow-list of
  /// the host's sandbox; a test checks each against a real sandbox).
  public static let sandboxGlobals: [(name: String, fields: [String])] = [
    ("assert", []), ("error", []), ("ipairs", []), ("next", []), ("pairs", []), ("pcall", []), ("rawequal", []),
    ("rawget", []), ("rawlen", []), ("rawset", []), ("select", []), ("setmetatable", []), ("getmetatable", []),
    ("tonumber", []), ("tostring", []), ("type", []), ("xpcall", []), ("print", []), ("require", []), ("load", []),
    ("collectgarbage", []), ("_VERSION", []), ("_G", []),
    (
      "string",
      ["byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack", "packsize", "rep", "reverse",
       "sub", "unpack", "upper"]
    ),
    ("table", ["concat", "insert", "move", "pack", "remove", "sort", "unpack"]),
    (
      "math",
      ["abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log", "max", "maxinteger",
       "min", "mininteger", "modf", "pi", "rad", "random", "randomseed", "sin", "sqrt", "tan", "tointeger", "type", "ult"]
    ),
    ("utf8", ["char", "charpattern", "codepoint", "codes", "len", "offset"]),
    ("coroutine", ["close", "create", "isyieldable", "resume", "running", "status", "wrap", "yield"]),
    ("os", ["clock", "date", "time"]),
  ]

  /// Unused arguments the screen contract passes in a fixed order (`function(state, sender)`),
  /// and the `ui` a list's `row(ui)` takes inside `layout(ui)`: not worth a warning.
  public static let ignored = [
    "212/state", "212/sender", "212/view", "212/on", "212/store", "212/action", "212/data", "212/item", "212/row",
    "212/task", "432/ui",
  ]

  /// The file's text.
  public static var text: String {
    let globals = sandboxGlobals.map { global in
      global.fields.isEmpty
        ? "    \"\(global.name)\","
        : "    \(global.name) = { fields = { " + global.fields.map { "\"\($0)\"" }.joined(separator: ", ") + " } },"
    }
    return """
      -- luacheck configuration for SendingState screens and specs (written by `sendingstate init`).
      -- Screens run in the host's sandbox: only these globals exist there (no io, debug, package,
      -- os.execute, string.dump…), so luacheck flags what would fail at run time.
      stds.sendingstate_screen = {
        read_globals = {
      \(globals.joined(separator: "\n"))
        },
      }
      std = "sendingstate_screen"
      max_line_length = 120
      exclude_files = { "types/**", ".build/**" }

      -- Specs and their helpers are the project's own code: full Lua 5.4 and busted's globals
      -- (describe, it, assert, spy, stub, mock, match…), as `sendingstate test` runs them.
      files["**/*_spec.lua"] = { std = "lua54+busted" }
      files["spec/**/*.lua"] = { std = "lua54+busted" }
      files[".busted"] = { std = "lua54" }

      ignore = { \(ignored.map { "\"\($0)\"" }.joined(separator: ", ")) }

      """
  }
}
