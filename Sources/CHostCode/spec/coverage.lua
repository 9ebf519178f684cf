-- The lines of a Lua file that can run, for `sendingstate test --coverage` (see SpecCoverage.swift):
-- the lines that hold VM instructions in any of the file's functions, nested ones included, as
-- Lua's own debug.getinfo(f, "L").activelines gives them for one function. The file is compiled
-- (never run) and its binary chunk read: the chunk holds every prototype with its line info,
-- where activelines sees only the function at hand. Left out, as luacov leaves them out: the
-- implicit return each function ends with (at its `end`, or past a file's last line) and a
-- vararg function's VARARGPREP (activelines leaves it out too).
-- luacheck: std lua54, max line length 160

-- Reads the binary chunk of Lua 5.4 (ldump.c's format) from `bytes`; returns the set of lines.
local function activeLines(bytes)
  local pos = 1
  local function byte()
    local b = bytes:byte(pos)
    if not b then error("truncated chunk", 0) end
    pos = pos + 1
    return b
  end
  -- dumpSize: 7 bits a byte, most significant first; the last byte has its high bit set.
  local function size()
    local x = 0
    repeat
      local b = byte()
      x = x * 128 + (b & 0x7f)
    until b >= 0x80
    return x
  end
  local function skip(n) pos = pos + n end
  local function str()
    local n = size()
    if n > 0 then skip(n - 1) end
  end
  if bytes:sub(1, 5) ~= "\27Lua\x54" or bytes:byte(6) ~= 0 then error("not a Lua 5.4 chunk", 0) end
  pos = 13  -- signature, version, format, LUAC_DATA
  local instructionSize, integerSize, numberSize = byte(), byte(), byte()
  skip(integerSize + numberSize)  -- LUAC_INT, LUAC_NUM
  skip(1)  -- the main closure's number of upvalues
  local lines = {}
  local function func()
    str()  -- source
    local lineDefined = size()
    size()  -- lastlinedefined
    skip(1)  -- numparams
    local vararg = byte() ~= 0
    skip(1)  -- maxstacksize
    local codeSize = size()
    skip(codeSize * instructionSize)
    for _ = 1, size() do  -- constants
      local tag = byte()
      if tag == 3 then skip(integerSize)          -- integer
      elseif tag == 19 then skip(numberSize)      -- float
      elseif tag == 4 or tag == 20 then str() end -- short and long strings (nil and booleans hold nothing)
    end
    skip(size() * 3)  -- upvalues
    for _ = 1, size() do func() end  -- nested prototypes
    local deltas = {}
    local deltaCount = size()
    for pc = 0, deltaCount - 1 do
      local d = byte()
      deltas[pc] = d >= 128 and d - 256 or d
    end
    local absolute = {}
    for _ = 1, size() do
      local pc = size()
      absolute[pc] = size()
    end
    for _ = 1, size() do str() size() size() end  -- local variables
    for _ = 1, size() do str() end  -- upvalue names
    if deltaCount == codeSize then  -- (a stripped chunk has no line info)
      local line = lineDefined
      for pc = 0, codeSize - 1 do
        local d = deltas[pc]
        if d == -128 then line = absolute[pc] else line = line + d end
        if pc < codeSize - 1 and not (vararg and pc == 0) then lines[line] = true end
      end
    end
  end
  func()
  return lines
end

-- lines(text, name): the sorted lines of `text` that can run, or nil and the syntax error.
return function(text, name)
  local chunk, problem = load(text, "@" .. name, "t", {})
  if not chunk then return nil, problem end
  local set = activeLines(string.dump(chunk))
  local sorted = {}
  for line in pairs(set) do sorted[#sorted + 1] = line end
  table.sort(sorted)
  return sorted
end
