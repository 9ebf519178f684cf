-- luacheck configuration for SendingState screens and specs (written by `sendingstate init`).
-- Screens run in the host's sandbox: only these globals exist there (no io, debug, package,
-- os.execute, string.dump…), so luacheck flags what would fail at run time.
stds.sendingstate_screen = {
  read_globals = {
    "assert",
    "error",
    "ipairs",
    "next",
    "pairs",
    "pcall",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "select",
    "setmetatable",
    "getmetatable",
    "tonumber",
    "tostring",
    "type",
    "xpcall",
    "print",
    "require",
    "load",
    "collectgarbage",
    "_VERSION",
    "_G",
    string = { fields = { "byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack", "packsize", "rep", "reverse", "sub", "unpack", "upper" } },
    table = { fields = { "concat", "insert", "move", "pack", "remove", "sort", "unpack" } },
    math = { fields = { "abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log", "max", "maxinteger", "min", "mininteger", "modf", "pi", "rad", "random", "randomseed", "sin", "sqrt", "tan", "tointeger", "type", "ult" } },
    utf8 = { fields = { "char", "charpattern", "codepoint", "codes", "len", "offset" } },
    coroutine = { fields = { "close", "create", "isyieldable", "resume", "running", "status", "wrap", "yield" } },
    os = { fields = { "clock", "date", "time" } },
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

ignore = { "212/state", "212/sender", "212/view", "212/on", "212/store", "212/action", "212/data", "212/item", "212/row", "212/task", "432/ui" }
