-- The oracle for the sandbox's pattern functions: runs each case through
-- Lua's own string.find/match/gmatch/gsub and through ours, and compares
-- everything observable (every result, every error message, every call a
-- replacement function or table sees, every step of a gmatch iteration).
--
-- Arguments: the table sslua_open_bounded returns, the corpus to run
-- ("hand", "random" or "plain"), a seed and a size (random corpora).
-- Returns: the number of cases compared, the number of mismatches, and a
-- report of the first mismatches (empty when there are none).
local bounded, corpus, seed, size = ...

local pack, unpack = table.pack, table.unpack
local fmt, rep, char = string.format, string.rep, string.char
local concat = table.concat

local real = {
  find = string.find, match = string.match, gmatch = string.gmatch, gsub = string.gsub,
}
local ours = {
  find = bounded["string.find"], match = bounded["string.match"],
  gmatch = bounded["string.gmatch"], gsub = bounded["string.gsub"],
}
for name, f in pairs(ours) do
  assert(type(f) == "function", "missing string." .. name)
end

-- {======================================================
-- Running a case on one side
-- =======================================================

local function show(v)
  local t = math.type(v) or type(v)
  if t == "string" then return fmt("%q", v) end
  if t == "integer" or t == "float" or t == "boolean" or t == "nil" then
    return t .. ":" .. tostring(v)
  end
  return t
end

local function showall(r)
  local out = {}
  for i = 1, r.n do out[i] = show(r[i]) end
  return "(" .. concat(out, ", ") .. ")"
end

-- Calls f(...) and packs its results. Never a tail call, so an error names
-- the function the same way ('f') on both sides, from the same line.
local function call(f, ...)
  local r = pack(f(...))
  return r
end

local function attempt(f, ...)
  local ok, r = pcall(call, f, ...)
  if ok then return showall(r) end
  return "error: " .. tostring(r)
end

-- Replacement values for gsub that a case names by a marker; each side gets
-- its own copy, and a log of what it was called with.
local Repl = {}
local replacements = {
  log = "function(...) log(...) end",
  first = "function(...) log(...) return (...) end",
  count = "function(...) log(...) return select('#', ...) end",
  falsy = "function(...) log(...) return false end",
  float = "function(...) log(...) return 1.5 end",
  badtable = "function(...) log(...) return {} end",
  boom = "function(...) log(...) error('boom') end",
  keys = "setmetatable({a = 'A', b = false, ab = 7, [1] = 'one', [2] = 2.5, bc = {}}, "
      .. "{__index = function(_, k) log(k) return nil end})",
  plain = "{a = '<a>', b = '<b>', [3] = 'three', ['1'] = 'string one'}",
  -- the same side's functions, called while its gsub is between two matches
  nested = "function(w, ...) log(w, ...) local n = 0 "
      .. "for c in S.gmatch(w, '(.)') do n = n + select(2, S.gsub(c, '%w', '%0%0')) end "
      .. "return S.match(w, '^(.-)(.?)$') .. n .. (S.find(w, 'b', 1, true) or '') end",
}
local function marker(name)
  assert(replacements[name], name)
  return setmetatable({name = name}, Repl)
end

-- Makes the value a marker stands for on a side, logging into `log`.
local function materialize(v, log, side)
  if getmetatable(v) ~= Repl then return v end
  local env = {
    setmetatable = setmetatable, select = select, error = error, S = side,
    log = function(...) log[#log + 1] = showall(pack(...)) end,
  }
  return assert(load("return " .. replacements[v.name], "=repl", "t", env))()
end

-- Everything observable of one case on one side, as a string.
local function run(side, fname, args)
  local log = {}
  local a = {n = args.n}
  for i = 1, args.n do a[i] = materialize(args[i], log, side) end
  local f = side[fname]
  local out
  if fname == "gmatch" then
    local ok, it = pcall(call, f, unpack(a, 1, a.n))
    if not ok then
      out = "error: " .. tostring(it)
    else
      local steps = {}
      it = it[1]
      -- (an iteration may go on after an error: Lua's iterator does)
      for _ = 1, 300 do
        local step = attempt(it)
        steps[#steps + 1] = step
        if step == "()" then break end
      end
      steps[#steps + 1] = attempt(it)  -- once more after the end
      out = concat(steps, " ")
    end
  else
    out = attempt(f, unpack(a, 1, a.n))
  end
  if #log > 0 then out = out .. " log: " .. concat(log, " ") end
  return out
end

-- }======================================================

-- {======================================================
-- The cases
-- =======================================================

local cases = {}

local function case(fname, ...)
  cases[#cases + 1] = {fname = fname, args = pack(...)}
end

-- A subject and a pattern through all four functions.
local function all(s, p)
  case("find", s, p)
  case("match", s, p)
  case("gmatch", s, p)
  case("gsub", s, p, "<%0>")
end

local function hand()
  -- Plain characters, '.', anchors and '$'.
  all("hello world", "o")
  all("hello world", "o w")
  all("hello world", "")
  all("", "")
  all("", "a")
  all("", ".")
  all("abc", ".")
  all("abc", "..")
  all("abc", "....")
  all("abc", "^a")
  all("abc", "^b")
  all("abc", "c$")
  all("abc", "b$")
  all("abc", "^abc$")
  all("abc", "^$")
  all("", "^$")
  all("a$b", "$b")
  all("a$b", "a$")
  all("a$$", "$$")
  all("a$", "%$$")
  all("^a^b", "^^")
  all("^a^b", "^.")
  all("a^b", "a^")
  all("abc", "$")
  -- Classes and complements.
  local classes = {"a", "c", "d", "g", "l", "p", "s", "u", "w", "x", "z"}
  local mixed = "Ab1 _-\t\n\0zZ9fF!~\127\128\255x"
  for _, c in ipairs(classes) do
    all(mixed, "%" .. c .. "+")
    all(mixed, "%" .. c:upper() .. "+")
  end
  all(mixed, "%q")
  all("a.b", "%.")
  all("a%b", "%%")
  all("a]b", "%]")
  all("(x)", "%(%a%)")
  all("1+1=2", "%d%+%d")
  -- Sets.
  all("hello world", "[aeiou]")
  all("hello world", "[^aeiou]+")
  all("hello-world_2", "[%w_]+")
  all("hello-world", "[a-f]+")
  all("a-z", "[a-]")
  all("a-z", "[-a]+")
  all("]]]", "[]]+")
  all("a]b", "[]a]+")
  all("^^a", "[^^]")
  all("^^a", "[%^]+")
  all("a%d", "[%%]")
  all("abcxyz", "[x-z%d]+")
  all("az-09", "[a-%d]+")
  all("az-09", "[%a-z]+")
  all("abc", "[a-c-e]+")
  all("\0\1\2", "[\0-\1]+")
  all("\200\210\255", "[\200-\255]+")
  all("x", "[^]")
  all("x", "[^]x]")
  all("abc", "[]")
  all("abc", "[a")
  all("abc", "[a%")
  all("abc", "[a%]")
  all("abc", "[%a")
  all("x]", "[^%]]")
  -- Quantifiers.
  all("aaab", "a*")
  all("aaab", "a+")
  all("aaab", "a-")
  all("aaab", "a?")
  all("aaab", "a-b")
  all("aaab", "a*b")
  all("aaab", "a+b")
  all("aaab", "a?b")
  all("aaab", "a?a?a?a?b")
  all("b", "a+")
  all("<a><b>", "<.->")
  all("<a><b>", "<.*>")
  all("  trim me  ", "^%s*(.-)%s*$")
  all("key = value", "(%w+)%s*=%s*(%w+)")
  all("**", "**")
  all("a*", "a**")
  all("+", "+")
  all("a+", "a++")
  all("-", "-")
  all("?", "?")
  all("a", "a??")
  all("abab", "[ab]-b")
  all("x = 1, y = 22", "%d+")
  all("2024-01-02", "(%d+)-(%d+)-(%d+)")
  -- Captures.
  all("hello", "()")
  all("hello", "()ll()")
  all("hello", "(h)(e)(l)(l)(o)")
  all("hello", "((h)(e))")
  all("hello", "(h(e(l)))")
  all("hello", "(l)(l)")
  all("hello", "(l*)")
  all("hello", "(x*)")
  all("hello", "()x*()")
  all("hello", "(")
  all("hello", "(h")
  all("hello", ")")
  all("hello", "h)")
  all("hello", "(h))")
  all("hello", "(()")
  all("hello", rep("(", 32) .. "h" .. rep(")", 32))
  all("hello", rep("(", 33) .. "h" .. rep(")", 33))
  all("hello", rep("()", 32))
  all("hello", rep("()", 33))
  -- Back-references.
  all("abab", "(ab)%1")
  all("abcabc", "(a)(b)(c)%1%2%3")
  all("aa", "(a)%1")
  all("ab", "(a)%1")
  all("hello", "(l)%1")
  all("x = 'y'", "(['\"])(.-)%1")
  all("aa", "%1")
  all("aa", "(a%1)")
  all("aa", "(a)%2")
  all("aa", "(a)%0")
  all("aa", "()%1")
  all("aa", "(a)()%2")
  all("aaaa", "(a*)%1")
  all("abcabc", "(.-)%1$")
  -- Balances and frontiers.
  all("f(a(b)c)d", "%b()")
  all("f(a(b)c", "%b()")
  all("x[[a]]", "%b[]")
  all("'a''b'", "%b''")
  all("abcba", "%bab")
  all("abc", "%b")
  all("abc", "%ba")
  all("((((", "%b()")
  all("(a)(b)", "%b()%b()")
  all("(a)", "%b()*")
  all("THE (quick) fox", "%f[%a]%a+")
  all("THE (quick) fox", "%f[%a]%a+%f[%A]")
  all("hello", "%f[%z]")
  all("hello", "%f[^%z]")
  all("hello", "%f[%l]")
  all("hello", "%f[%L]")
  all("aXb", "%f[%u]")
  all("abc", "%f")
  all("abc", "%fa")
  all("abc", "%f[a")
  all("a,b,,c", "%f[^,]")
  all("end", "%f[%w]%w+%f[%W]")
  -- Malformed patterns.
  all("abc", "%")
  all("abc", "a%")
  all("abc", "x%")
  all("abc", "[")
  all("abc", "[^")
  all("abc", "x[")
  all("abc", "a(")
  -- Embedded zeros.
  all("a\0b\0c", "\0")
  all("a\0b\0c", "%z")
  all("a\0b\0c", "[%z]b")
  all("a\0b\0c", "b\0")
  all("a\0b", "a.b")
  all("a\0b", "a%Zb")

  -- find: init positions and plain searches.
  for _, init in ipairs({-100, -4, -3, -1, 0, 1, 2, 3, 4, 5, 100}) do
    case("find", "abc", "c", init)
    case("find", "abc", "", init)
    case("find", "abc", "^b", init)
    case("find", "abc", "()", init)
    case("find", "abc", "b", init, true)
    case("find", "abc", "", init, true)
    case("match", "abc", ".*", init)
    case("match", "abc", "^b", init)
    case("gmatch", "abc", ".", init)
    case("gmatch", "abc", "", init)
  end
  case("find", "a.b", ".", 1, true)
  case("find", "a.b", "%.", 1, true)
  case("find", "a+b", "+", 1, false)
  case("find", "a+b", "a+", 1, 0)
  case("find", "a+b", "a+", 1, "")
  case("find", "a+b", "a+", 1, nil)
  case("find", "a+b", "a+", nil, true)
  case("find", "a(b", "(", 1, true)
  case("find", "a(b", "(")
  case("find", "aaab", "aab")
  case("find", "hello", "hello!")
  case("find", "hello", "lo", 4.0)
  case("find", "hello", "lo", "4")
  case("find", "hello", "lo", "4.0")
  case("find", "hello", "lo", 4.5)
  case("find", "hello", "lo", "x")
  case("find", "hello", "lo", {})
  case("find", 12345, 34)
  case("find", 12.5, "%.")
  case("find", "x", 1)
  case("find", true, "x")
  case("find", "x", nil)
  case("find", nil, "x")
  case("find", "x")
  case("find")
  case("find", "a\0b", "\0", 1, true)
  case("find", "a\0b", "\0b")
  case("find", "a\0b", "b\0")
  case("find", rep("ab", 100) .. "abc", "abc", 1, true)
  case("find", rep("a", 300), rep("a", 40) .. "b", 1, true)
  case("find", rep("a", 300) .. "b", rep("a", 40) .. "b", 1, true)
  case("match", "hello", "l+", -2)
  case("match", "hello", "l+", "2")
  case("match", "hello", "(h)(e)", 1, true)
  case("match", "x", nil)
  case("match")
  case("match", {}, "x")
  -- gmatch: the last-match rule, init, and anchors.
  case("gmatch", "abc", "%a*")
  case("gmatch", "abc", "%a-")
  case("gmatch", "a,b,,c", "([^,]*)")
  case("gmatch", "a,b,,c", "[^,]*")
  case("gmatch", "hello world from lua", "%a+")
  case("gmatch", "k1=v1, k2=v2", "(%w+)=(%w+)")
  case("gmatch", "abc", "()")
  case("gmatch", "abc", "()", 2)
  case("gmatch", "abc", "()", 4)
  case("gmatch", "abc", "()", 5)
  case("gmatch", "abc", "()", -1)
  case("gmatch", "^a^b", "^a")
  case("gmatch", "aaa", "^a")
  case("gmatch", "aaa", "a*$")
  case("gmatch", "xax", "x*")
  case("gmatch", "abc", "(")
  case("gmatch", "abc", "%")
  -- (after an error inside the matcher, Lua's iterator allows less depth,
  -- and none at all after "pattern too complex")
  case("gmatch", "aaa", "a(%2)")
  case("gmatch", rep("a", 300), rep("a?", 250))
  case("gmatch", "aaab aab ab b", rep("a?", 150) .. "b%2")
  case("gmatch", "aaab aab ab b", rep("a?", 150) .. "b%f")
  case("gmatch", "aaab aab ab b", "(" .. rep("a?", 150) .. "b)%3")
  case("gmatch", "ab" .. rep("a", 260), rep("a?", 30) .. "b" .. rep("a?", 240) .. "%9")
  case("gmatch", "abc", ".", "2")
  case("gmatch", "abc", ".", "x")
  case("gmatch", "abc")
  case("gmatch")
  -- gsub: replacement strings.
  for _, r in ipairs({"", "x", "%0", "%1", "%2", "[%1|%0]", "%%", "%", "%a", "a%", "%%%",
                      "%9", "<%1%1>", "%00", "\0%1\0"}) do
    case("gsub", "hello world", "o", r)
    case("gsub", "hello world", "(o)", r)
    case("gsub", "hello world", "(o)(r?)", r)
    case("gsub", "hello world", "()o", r)
    case("gsub", "hello world", "x", r)
  end
  case("gsub", "hello", "", "-")
  case("gsub", "hello", "x*", "-")
  case("gsub", "hello", "l*", "-")
  case("gsub", "hello", "l-", "-")
  case("gsub", "hello", "^", "-")
  case("gsub", "hello", "$", "-")
  case("gsub", "hello", "^h", "-")
  case("gsub", "hello", "^x", "-")
  case("gsub", "hello", "^", "-", 0)
  case("gsub", "", "", "-")
  case("gsub", "", "x*", "%0%0")
  case("gsub", "abc", "%w", "%0%0")
  case("gsub", "abc", "%w", 7)
  case("gsub", "abc", "%w", 1.5)
  case("gsub", "hello world", "(%w+)", "<%1>")
  case("gsub", "hello world", "%w+", "%0 %0", 1)
  case("gsub", "hello world", "(%w+)%s*(%w+)", "%2 %1")
  case("gsub", "abc", "(a)(", "x")
  case("gsub", "abc", "(a)(", "%2")
  case("gsub", "abc", "(a)(", marker("log"))
  case("gsub", "abc", "(a)(", marker("plain"))
  -- gsub: the maximum number of replacements.
  for _, n in ipairs({-1, 0, 1, 2, 3, 10, 2.0, "2", "2.0", 2.5, "x", {}, true}) do
    case("gsub", "aaaa", "a", "b", n)
    case("gsub", "aaaa", "", "-", n)
  end
  case("gsub", "aaaa", "a", "b", nil)
  case("gsub", "aaaa", "a", "b", math.mininteger)
  case("gsub", "aaaa", "a", "b", math.maxinteger)
  -- gsub: tables and functions.
  for _, name in ipairs({"log", "first", "count", "falsy", "float", "badtable", "boom",
                         "keys", "plain", "nested"}) do
    case("gsub", "a b ab bc x", "%w+", marker(name))
    case("gsub", "a b ab bc x", "(%w)(%w)", marker(name))
    case("gsub", "a b ab bc x", "()(%w+)", marker(name))
    case("gsub", "a b ab bc x", "", marker(name), 3)
    case("gsub", "a b ab bc x", "x", marker(name))
    case("gsub", "a b ab bc x", "q", marker(name))
  end
  -- gsub: bad arguments.
  case("gsub", "abc", "b")
  case("gsub", "abc", "b", nil)
  case("gsub", "abc", "b", true)
  case("gsub", "abc", "b", false)
  case("gsub", "abc", "b", "x", "bad")
  case("gsub", "abc", "b", true, "bad")
  case("gsub", "abc", nil, "x")
  case("gsub", nil, "b", "x")
  case("gsub", 123, 2, 5)
  case("gsub", 123, "x", 5)
  case("gsub")

  -- How deep a match may nest: Lua's limit is 200 nested calls. (Only
  -- patterns whose first path matches, or that fail at once: a failure
  -- after 190 choices would try them all.)
  for k = 190, 205 do
    case("find", rep("a", k), rep("a?", k))
    case("find", rep("a", k), rep("a?", k) .. "$")
    case("find", rep("a", k), rep("a*", k))
    case("match", rep("a", k), "(" .. rep("a-", k - 1) .. ")")
    case("match", rep("a", k), rep("(a)", k // 7) .. rep("a?", k - k // 7))
    case("match", rep("a", k), rep("(a)", 8) .. rep("a?", k) .. "b?")
    case("gsub", rep("ab", k), rep("%w?", k // 2) .. "()", "%1")
    case("gmatch", rep("a", k), rep("a?", k - 3))
  end
  -- Long subjects (slices of the scans and of the charges).
  local long = rep("ab", 5000)
  case("find", long, "b$")
  case("find", long .. "c", "a*c")
  case("find", long, "%bab")
  case("find", "a" .. long, "%bab")
  case("find", rep("(", 10000) .. rep(")", 10000), "%b()")
  case("find", rep("(", 10000) .. rep(")", 9999), "%b()")
  case("find", rep("x", 9000), "x*$")
  case("find", rep("x", 9000), "x-$")
  case("find", rep("x", 9000), "[xy]*$")
  case("find", rep("x", 9000), "%a*$")
  case("find", rep("x", 9000), ".*$")
  case("find", rep("x", 9000) .. "y", "(x*)%1y")
  case("find", long, "(ab*)%1%1")
  case("gsub", long, "b", "%0%0")
  case("gsub", long, "", ".")
  case("gsub", long, "a", marker("first"))
  case("gsub", long, "[%a]", "%1")
  case("gmatch", long, "ab")
  case("match", long .. "!", "^(.-)(!?)$")
  local set = "[" .. rep("qwertyuiop", 20) .. "b]"
  case("find", long, set .. "+")
  case("gsub", long, set, "-")
end

-- }======================================================

-- {======================================================
-- Random cases
-- =======================================================

-- SplitMix64: the same numbers for a seed on every machine.
local state = math.tointeger(seed) or 1
local function nextword()
  state = state + 0x9E3779B97F4A7C15
  local z = state
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  return z ~ (z >> 31)
end

local function rand(n)  -- 1..n
  return (nextword() >> 1) % n + 1
end

local function pick(list)
  return list[rand(#list)]
end

local letters = {"a", "a", "b", "b", "c", " ", "(", ")", "1", "_", ".", "A", "%", "-", "x",
                 "[", "]", "^", "$", "\0", "\255"}
local atoms = {
  "a", "b", "c", "a", "b", ".", " ", "1", "x", "^",
  "%a", "%d", "%s", "%w", "%l", "%u", "%p", "%x", "%c", "%g", "%z",
  "%A", "%D", "%S", "%W", "%L", "%U", "%P", "%X", "%C", "%G",
  "%(", "%)", "%.", "%%", "%-", "%]", "%[",
  "[ab]", "[^a]", "[a-c]", "[%d_]", "[%a-]", "[]a]", "[^%s]", "[b-a]", "[.]", "[^]b]",
  "[a-]", "[-b]", "[%w%p]", "[^%a%d]",
}
local specials = {
  "%b()", "%bab", "%bba", "%b((", "%f[%w]", "%f[^a]", "%f[a-b]", "%f[%W]", "%f[%z]",
  "%1", "%2", "%3", "()", "$",
}
local broken = {"%", "[a", "[", ")", "%f", "%fa", "%b", "%ba", "%9", "(", "[^", "%0"}
local suffixes = {"", "", "", "*", "+", "-", "?"}

local function random_pattern()
  local out = {}
  local open, quantified = 0, 0
  if rand(5) == 1 then out[#out + 1] = "^" end
  for _ = 1, rand(7) - 1 do
    local r = rand(20)
    if r <= 12 then
      local suffix = pick(suffixes)
      if suffix ~= "" then
        quantified = quantified + 1
        if quantified > 4 then suffix = "" end
      end
      out[#out + 1] = pick(atoms) .. suffix
    elseif r <= 14 and open < 3 then
      out[#out + 1] = "("
      open = open + 1
    elseif r <= 16 and open > 0 then
      out[#out + 1] = ")"
      open = open - 1
    elseif r <= 19 then
      out[#out + 1] = pick(specials)
    elseif rand(3) == 1 then
      out[#out + 1] = pick(broken)
    end
  end
  while open > 0 and rand(4) > 1 do
    out[#out + 1] = ")"
    open = open - 1
  end
  if rand(6) == 1 then out[#out + 1] = "$" end
  return concat(out)
end

local function random_subject(p)
  local out = {}
  for _ = 1, rand(20) - 1 do
    if rand(8) == 1 and #p > 0 then  -- a piece of the pattern, to match more often
      local i = rand(#p)
      out[#out + 1] = p:sub(i, i + rand(3) - 1)
    else
      out[#out + 1] = pick(letters)
    end
  end
  return concat(out)
end

local inits = {1, 2, 3, 0, -1, -2, -5, 5, 10, 25, -30}
local function random_init()  -- nil two times in three
  if rand(3) > 1 then return nil end
  return inits[rand(#inits)]
end
local templates = {"<%0>", "%1", "%2", "[%1:%2]", "%%", "-", "", "%", "%x", "x%1y"}
local markers = {"log", "first", "count", "falsy", "keys", "plain", "float", "nested"}

local function random_cases(count)
  for _ = 1, count do
    local p = random_pattern()
    local s = random_subject(p)
    local init = random_init()
    if rand(4) == 1 then
      case("find", s, p, init, rand(2) == 1)
    else
      case("find", s, p, init)
    end
    case("match", s, p, init)
    case("gmatch", s, p, init)
    local r = rand(3) == 1 and marker(pick(markers)) or pick(templates)
    if rand(4) == 1 then
      case("gsub", s, p, r, rand(5) - 2)
    else
      case("gsub", s, p, r)
    end
  end
end

-- Plain searches in long subjects of a small alphabet: near misses
-- everywhere, and the needles are pieces of the subject (or almost).
local function plain_cases(count)
  local alphabets = {{"a", "b"}, {"a", "b"}, {"a", "a", "a", "b"}, {"a", "b", "c"}}
  for k = 1, count do
    local alphabet = pick(alphabets)
    local period = rand(8)
    local unit = {}
    for i = 1, period do unit[i] = pick(alphabet) end
    unit = concat(unit)
    local s, len = {}, 0
    local n = rand(k % 10 == 0 and 20000 or 1500)
    while len < n do
      s[#s + 1] = rand(10) == 1 and pick(alphabet) or unit
      len = len + #s[#s]
    end
    s = concat(s)
    local m = rand(k % 7 == 0 and 400 or 60)
    local at = rand(#s)
    local needle = s:sub(at, at + m - 1)
    if rand(3) == 1 and #needle > 0 then  -- change one byte: maybe nowhere
      local i = rand(#needle)
      needle = needle:sub(1, i - 1) .. pick(alphabet) .. needle:sub(i + 1)
    end
    if rand(4) == 1 then needle = rep(unit, rand(8)) .. pick(alphabet) end
    local init = rand(3) == 1 and rand(#s + 2) - 1 or nil
    case("find", s, needle, init, true)
  end
end

-- }======================================================

if corpus == "hand" then
  hand()
elseif corpus == "random" then
  random_cases(size)
elseif corpus == "plain" then
  plain_cases(size)
else
  error("unknown corpus " .. tostring(corpus))
end

local mismatches, report = 0, {}
for _, c in ipairs(cases) do
  local want = run(real, c.fname, c.args)
  local got = run(ours, c.fname, c.args)
  if want ~= got then
    mismatches = mismatches + 1
    if #report < 12 then
      local shown = {}
      for i = 1, c.args.n do
        local v = c.args[i]
        shown[i] = getmetatable(v) == Repl and ("<" .. v.name .. ">") or show(v)
      end
      local line = fmt("%s(%s)\n  lua:  %s\n  ours: %s", c.fname, concat(shown, ", "),
                       want, got)
      if #line > 2000 then line = line:sub(1, 2000) .. "..." end
      report[#report + 1] = line
    end
  end
end
return #cases, mismatches, concat(report, "\n")
