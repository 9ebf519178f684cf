-- The Lua side of `sendingstate test` (see SpecHost.swift): busted's own modules, assembled as its
-- command-line runner assembles them, with the runner's limits in place of the standard functions.
-- luacheck: std lua54, max line length 160
-- It replaces standard functions and globals on purpose, before busted loads:
-- luacheck: globals setmetatable pcall xpcall print arg package io os coroutine string table utf8
local prims, argv, settings = ...

-- The runner's limits (SpecLimits.c), in place of the standard functions, before busted loads:
-- coroutines keep the deadline, library functions that loop in C charge their work as they go,
-- and once a test's time is out nothing but the runner's own safe call can catch the error.
local limits = require "sendingstate.limits"
-- (Not left in package.loaded: errors name a function by where they find it there, as 'xpcall'.)
package.loaded["sendingstate.limits"] = nil
local cocreate, coresume = coroutine.create, coroutine.resume  -- the run's own thread
local realPcall, realSetmetatable, realRawget, realRawset = pcall, setmetatable, rawget, rawset

-- Lua runs finalizers with its hooks off, so a __gc that loops would hang the run (or its
-- end, when the state closes): a spec's finalizer runs in a bounded coroutine under a
-- --timeout of its own. One that runs out is stopped, named on stderr, and fails the run.
local finalizerTimeouts = 0
do
  local bounded = limits.bounded
  local bcreate, bresume = bounded["coroutine.create"], bounded["coroutine.resume"]
  local wrappers = realSetmetatable({}, { __mode = "k" })
  local function bound(finalize)
    local info = debug.getinfo(finalize, "S")
    local where = (info.source:sub(1, 1) == "@" and info.source:sub(2) or info.short_src) .. ":" .. info.linedefined
    local function finalizer(...)
      local limit = settings.timeout
      if not (limit and limit > 0) then return finalize(...) end
      local savedLeft, savedLimit, savedTrip = limits.start(limit)
      local ok, resumed, problem = realPcall(bresume, bcreate(finalize), ...)
      local timedOut = limits.timedOut()
      limits.stop(savedLeft, savedLimit, savedTrip)
      if timedOut then
        finalizerTimeouts = finalizerTimeouts + 1
        prims.writeError(("sendingstate test: the __gc finalizer at %s ran past --timeout (%g s) and was stopped\n"):format(where, limit))
        return
      end
      if not ok then error(resumed, 0) end
      if not resumed then error(problem, 0) end
    end
    wrappers[finalizer] = true
    return finalizer
  end
  setmetatable = function(t, meta)
    if type(meta) == "table" then
      local finalize = realRawget(meta, "__gc")
      if type(finalize) == "function" and not wrappers[finalize] then realRawset(meta, "__gc", bound(finalize)) end
    end
    return realSetmetatable(t, meta)
  end
end

do
  local bounded = limits.bounded
  coroutine.create, coroutine.resume, coroutine.wrap = bounded["coroutine.create"], bounded["coroutine.resume"], limits.wrap
  coroutine.close = bounded["coroutine.close"]
  pcall, xpcall = limits.pcall, limits.xpcall
  string.rep = bounded["string.rep"]
  string.find, string.match = bounded["string.find"], bounded["string.match"]
  string.gmatch, string.gsub = bounded["string.gmatch"], bounded["string.gsub"]
  string.byte = bounded["string.byte"]
  table.move, table.concat = bounded["table.move"], bounded["table.concat"]
  table.insert, table.remove = bounded["table.insert"], bounded["table.remove"]
  table.sort, table.unpack = bounded["table.sort"], bounded["table.unpack"]
  utf8.codepoint, utf8.len, utf8.offset = bounded["utf8.codepoint"], bounded["utf8.len"], bounded["utf8.offset"]
end

-- os.exit cannot end the run (the host owns the exit code): it is an error at its line, and
-- one a spec catches (pcall, a coroutine) fails the test or hook that made it when it returns.
local exitPending
os.exit = function()
  local where = ""
  for level = 2, 50 do
    local info = debug.getinfo(level, "Sl")
    if not info then break end
    if info.currentline > 0 then where = info.short_src .. ":" .. info.currentline .. ": " break end
  end
  local message = where .. "os.exit is not available in specs: a test ends when its function returns "
    .. "(fail it with error() or an assertion); the run's exit code is the runner's"
  exitPending = exitPending or message
  error(message, 0)
end

-- Everything printed goes through the host, in order, and can be captured per test.
local write, writeError = prims.write, prims.writeError
local tostring, select, type, concat = tostring, select, type, table.concat
print = function(...)
  local n = select("#", ...)
  local parts = { ... }
  for i = 1, n do parts[i] = tostring(parts[i]) end
  write(concat(parts, "\t", 1, n) .. "\n")
end
local realStdout = io.stdout
io.write = function(...)
  for i = 1, select("#", ...) do
    local value = select(i, ...)
    local kind = type(value)
    if kind ~= "string" and kind ~= "number" then
      error("bad argument #" .. i .. " to 'write' (string expected, got " .. kind .. ")", 2)
    end
    write(tostring(value))
  end
  return realStdout
end
realStdout:setvbuf("no")
arg = { [0] = "sendingstate" }

local path = require "pl.path"
local busted = require "busted.core"()
local cli = require "busted.modules.cli"({ standalone = false, output = "terminal" })
local filterLoader = require "busted.modules.filter_loader"()
local helperLoader = require "busted.modules.helper_loader"()
local outputHandlerLoader = require "busted.modules.output_handler_loader"()
require "busted"(busted)

cli:set_name("sendingstate test")
local cliArgs, problem = cli:parse(argv)
if not cliArgs then return function() return { "usage", problem } end end

local machineOutputs = { TAP = true, json = true, junit = true }
local outputNames = { tap = "TAP", json = "json", junit = "junit", terminal = "terminal",
  utfterminal = "utfTerminal", plainterminal = "plainTerminal", gtest = "gtest" }
local output = outputNames[tostring(cliArgs.output):lower()] or cliArgs.output
settings.machine = machineOutputs[output] == true
settings.verbose = settings.verbose or cliArgs.verbose
-- --coverage, or .busted's `coverage = true`: count the lines of screens, their modules and
-- plugins, and of the modules specs require (the host writes the report after the run).
if cliArgs.coverage then prims.coverageStart() end

if not cliArgs["auto-insulate"] then busted.register("file", "file", {}) end
if cliArgs.lazy then
  busted.register("setup", "lazy_setup")
  busted.register("teardown", "lazy_teardown")
end
if #cliArgs.lpath > 0 then package.path = (cliArgs.lpath .. ";" .. package.path):gsub(";;", ";") end
if #cliArgs.cpath > 0 then package.cpath = (cliArgs.cpath .. ";" .. package.cpath):gsub(";;", ";") end
for _, statement in ipairs(cliArgs.e) do
  local chunk, err = load(statement, "=(-e)")
  if not chunk then return function() return { "usage", "-e: " .. err } end end
  chunk()
end

-- Counts, as busted's runner keeps them: a failing `it` is a failure; any other error
-- (a file that does not load, a failing hook) is an error. Both fail the run.
local counts = { passed = 0, failed = 0, skipped = 0, errors = 0 }
local function fullName(element)
  local names = { element.name or element.descriptor }
  local parent = busted.context.parent(element)
  while parent and (parent.name or parent.descriptor) and parent.descriptor ~= "file" do
    table.insert(names, 1, parent.name or parent.descriptor)
    parent = busted.context.parent(parent)
  end
  return concat(names, " › ")
end
settings.fullName = fullName
-- The file an element belongs to. A file's own element is its file (busted.getFile looks only
-- at parents, and from a file's element it can find the file that ran before it).
local function fileOf(element)
  if element.descriptor == "file" then return element.name or "" end
  local file = busted.getFile(element)
  return file and file.name or ""
end
settings.fileOf = fileOf

-- Where an error outside a test body happened, in words: "loading the spec" for a file, the
-- test a before_each/after_each ran for, the block of a setup/teardown or of a describe body.
-- Returns the place and the kind of block ("before_each", "setup", "describe", …).
local eachHooks = { before_each = true, after_each = true }
local function errorPlace(element)
  local descriptor = element.descriptor
  if descriptor == "file" then return "loading the spec", "file" end
  local kind = descriptor
  if descriptor ~= "describe" and descriptor ~= "context" and descriptor ~= "insulate" and descriptor ~= "expose" then
    kind = type(element.name) == "string" and element.name or descriptor  -- `setup`, not its alias `strict_setup`
    if eachHooks[descriptor] and settings.currentTest then return fullName(settings.currentTest), kind end
    local block = busted.context.parent(element)
    if block and block.descriptor ~= "file" and block.name then return fullName(block), kind end
    return "the file's top level", kind
  end
  return fullName(element), kind
end
settings.errorPlace = errorPlace

-- The test whose before_each/after_each hooks run now (nil between tests): a hook's error is
-- reported under that test.
settings.currentTest = nil

-- A file that does not compile is published with an empty trace ({}), and busted's TAP handler
-- (and any handler that prints an element's place) then fails on `trace.currentline`, losing
-- the run. The first subscriber gives the element its place: the file, and the line Lua names.
busted.subscribe({ "error", "file" }, function(element, _, message)
  if element.trace == nil or element.trace.currentline == nil then
    local name = tostring(element.name or "?")
    -- The line Lua names for this file (a module it requires may fail at a line of its own).
    local line = 0
    if type(message) == "string" then
      local at = select(2, message:find(name, 1, true))
      line = tonumber(at and message:match("^:(%d+): ", at + 1) or message:match("^[^\n]-:(%d+): ")) or 0
    end
    element.trace = { what = "main", source = "@" .. name, short_src = name, currentline = line, linedefined = 0,
      lastlinedefined = 0, traceback = "" }
  end
  return nil, true
end, { priority = 1 })

-- The screen driver (`require "sendingstate"`): closes screens with their test or block.
local driver = prims.driverModule(prims, settings, busted)
package.loaded.sendingstate = driver.module
-- `next` that walks a spec's read-only screen.state (luassert compares and prints tables with it).
next = driver.next  -- luacheck: ignore 121

busted.subscribe({ "error", "output" }, function(element, _, message)
  writeError("sendingstate test: cannot load output '" .. tostring(element.name) .. "': " .. tostring(message) .. "\n")
  return nil, true
end)
busted.subscribe({ "error", "helper" }, function(element, _, message)
  writeError("sendingstate test: cannot load helper '" .. tostring(element.name) .. "': " .. tostring(message) .. "\n")
  return nil, true
end)
-- An error outside a test counts as a failure; machine outputs show it on stderr too.
local function blockError(element, _, message)
  if element.descriptor ~= "it" then
    counts.errors = counts.errors + 1
    local place, kind = errorPlace(element)
    local what = kind == "file" and ("file " .. tostring(element.name)) or (kind .. " of " .. place)
    prims.report(fileOf(element), what, "error", message)
    if settings.machine then writeError("error in " .. what .. ": " .. tostring(message) .. "\n") end
  end
  return nil, true
end
busted.subscribe({ "error" }, blockError)
busted.subscribe({ "failure" }, blockError)
local messages = {}
busted.subscribe({ "failure", "it" }, function(element, _, message) messages[element] = message return nil, true end)
busted.subscribe({ "error", "it" }, function(element, _, message) messages[element] = message return nil, true end)
busted.subscribe({ "test", "end" }, function(element, _, status)
  local name = fullName(element)
  if status == "success" then counts.passed = counts.passed + 1
  elseif status == "pending" then counts.skipped = counts.skipped + 1
  else counts.failed = counts.failed + 1 end
  prims.report(fileOf(element), name, status, messages[element])
  messages[element] = nil
  return nil, true
end)

busted.sort = cliArgs["sort-tests"]
busted.randomize = cliArgs["shuffle-tests"]
busted.randomseed = tonumber(cliArgs.seed) or require("busted.utils").urandom() or os.time()

-- busted's JSON handler, except that values JSON cannot hold (the function busted keeps in
-- every pending test's attributes) are written as their names instead of failing the run.
package.preload["busted.outputHandlers.json"] = function()
  local json = require "dkjson"
  return function()
    local handler = require "busted.outputHandlers.base"()
    local function readable(_, value) return json.quotestring(tostring(value)) end
    handler.suiteEnd = function()
      write(json.encode({
        pendings = handler.pendings, successes = handler.successes, failures = handler.failures,
        errors = handler.errors, duration = handler.getDuration(),
      }, { exception = readable }) .. "\n")
      return nil, true
    end
    busted.subscribe({ "suite", "end" }, handler.suiteEnd)
    return handler
  end
end

-- Our terminal output is a busted output handler like the others.
package.preload["busted.outputHandlers.terminal"] = function()
  return prims.terminalOutput(prims, settings)
end
outputHandlerLoader(busted, output, {
  defaultOutput = "terminal",
  enableSound = false,
  verbose = settings.verbose,
  suppressPending = cliArgs["suppress-pending"],
  language = cliArgs.lang,
  deferPrint = cliArgs["defer-print"],
  arguments = cliArgs.Xoutput,
})

-- With a machine-readable output, what a test prints goes to stderr, named, after it.
if settings.machine then
  busted.subscribe({ "test", "start" }, function() prims.captureBegin() return nil, true end, { priority = 1 })
  busted.subscribe({ "test", "end" }, function(element)
    local text = prims.captureEnd()
    if text ~= "" then
      writeError("output of " .. fullName(element) .. ":\n" .. text .. (text:sub(-1) == "\n" and "" or "\n"))
    end
    return nil, true
  end, { priority = 1 })
end

if cliArgs.helper and cliArgs.helper ~= "" then
  -- A helper that names something on disk must be a file: busted's loader would wait on a
  -- FIFO for ever (a module name is not on disk, and is left to the loader).
  if path.exists(cliArgs.helper) and not path.isfile(cliArgs.helper) then
    return function()
      return { "usage", "the helper '" .. cliArgs.helper .. "' is not a regular file (a folder, a FIFO or a device): give a Lua file or a module name" }
    end
  end
  local ok, err = helperLoader(busted, cliArgs.helper, { verbose = settings.verbose, language = cliArgs.lang, arguments = cliArgs.Xhelper })
  if not ok then
    return function() return { "usage", "the helper '" .. cliArgs.helper .. "' failed: " .. tostring(err) } end
  end
end

filterLoader(busted, {
  tags = cliArgs.tags,
  excludeTags = cliArgs["exclude-tags"],
  filter = cliArgs.filter,
  filterOut = cliArgs["filter-out"],
  list = cliArgs.list,
  nokeepgoing = not cliArgs["keep-going"],
  suppressPending = cliArgs["suppress-pending"],
})

-- A wall-clock deadline for each test body, hook and block body (not for whole blocks).
local limit = settings.timeout
local leaves = { it = true, pending = true, finally = true, before_each = true, after_each = true,
  lazy_setup = true, lazy_teardown = true, strict_setup = true, strict_teardown = true,
  setup = true, teardown = true, describe = true, insulate = true, expose = true, file = true, context = true }
local safe = busted.safe
local function pass(...) return ... end
busted.safe = function(descriptor, run, element)
  local leaf = element ~= nil and (run == element.run or descriptor == "finally")
  if not leaf and element and element.descriptor == descriptor
    and (descriptor == "it" or descriptor == "describe" or descriptor == "file") then
    -- A whole test (before_each … after_each) or block: screens opened in it close after it.
    driver.scopeBegin(element)
    local savedTest = settings.currentTest
    if descriptor == "it" then settings.currentTest = element end
    local results = table.pack(safe(descriptor, run, element))
    settings.currentTest = savedTest
    driver.scopeEnd(element)
    return table.unpack(results, 1, results.n)
  end
  if leaf and descriptor == "it" then
    -- A test body: afterwards, what its exhaustively asserted screens owe fails it.
    local body = run
    run = function(...)
      local results = table.pack(body(...))
      driver.checkObligations(element)
      return table.unpack(results, 1, results.n)
    end
  end
  if leaf then
    -- An os.exit whose error the function caught fails it when it returns.
    local inner = run
    run = function(...)
      exitPending = nil
      local results = table.pack(inner(...))
      local pending = exitPending
      exitPending = nil
      if pending then error(pending, 0) end
      return table.unpack(results, 1, results.n)
    end
  end
  if leaf and limit and limit > 0 and leaves[descriptor] then
    local savedLeft, savedLimit = limits.start(limit)
    local results = table.pack(safe(descriptor, run, element))
    limits.stop(savedLeft, savedLimit)
    return table.unpack(results, 1, results.n)
  end
  return pass(safe(descriptor, run, element))
end
-- Only busted's own safe call ends a timeout (and names it); a spec's pcall cannot.
limits.owner(safe)

local function run()
  local roots = cliArgs.ROOT
  local loadFiles = require "busted.modules.test_file_loader"(busted, cliArgs.loaders)
  settings.files = loadFiles(roots, cliArgs.pattern, {
    excludes = cliArgs["exclude-pattern"],
    verbose = settings.verbose,
    recursive = cliArgs.recursive,
  })
  local execute = require "busted.execute"(busted)
  execute(cliArgs["repeat"], {
    seed = cliArgs.seed,
    shuffle = cliArgs["shuffle-files"],
    sort = cliArgs["sort-files"],
  })
  busted.publish({ "exit" })
  driver.closeAll()
  io.stdout:flush()
  collectgarbage()  -- (the finalizers of the run's garbage run, bounded, while they still count)
  counts.errors = counts.errors + finalizerTimeouts
  return { "done", counts.passed, counts.failed + counts.errors, counts.skipped, cliArgs.list and true or false, #settings.files, settings.machine,
    settings.files }
end

-- The run's thread takes its deadline back each time the host resumes it (a call from the
-- host starts without one); the host's own code between resumes runs without.
local co = cocreate(run)
return function(reply)
  limits.resume(co)
  local ok, request = coresume(co, reply)
  limits.pause()
  if not ok then error(debug.traceback(co, tostring(request)), 0) end
  return request
end
