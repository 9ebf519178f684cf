-- busted's output handler for the terminal (see SpecTerminalOutput.swift).
-- luacheck: std lua54, max line length 160
return function(prims, settings)
  return function(_options)
    local busted = require "busted"
    local handler = require "busted.outputHandlers.base"()
    local pretty = require "pl.pretty"
    local write = prims.write
    local function paint(code, text)
      if not settings.color then return text end
      return "\27[" .. code .. "m" .. text .. "\27[0m"
    end
    local function indent(text, prefix)
      return prefix .. (tostring(text):gsub("\n", "\n" .. prefix))
    end
    local currentFile
    -- Lua shortens long chunk names to "...tail"; put the spec's whole path back.
    local function unshorten(text)
      local tail = text:match("^%.%.%.([^\n]-):%d+:")
      if tail and currentFile and currentFile:sub(-#tail) == tail then
        return currentFile .. text:sub(4 + #tail)
      end
      return text
    end
    local function message(value)
      if type(value) == "string" then return unshorten(value) end
      if value == nil then return "Nil error" end
      return pretty.write(value)
    end

    local function showFile(name)
      if name and name ~= currentFile then
        currentFile = name
        write(paint("1", name) .. "\n")
      end
    end

    handler.fileStart = function(file)
      showFile(file.name)
      return nil, true
    end

    handler.testStart = function()
      prims.captureBegin()
      return nil, true
    end

    local failures = {}
    handler.testFailure = function(element, _, text, trace)
      failures[element] = { text = text, trace = trace }
      return nil, true
    end

    handler.testEnd = function(element, _, status)
      local printed = prims.captureEnd()
      local name = settings.fullName(element)
      if status == "success" then
        write("  " .. paint("32", "✓") .. " " .. name .. "\n")
      elseif status == "pending" then
        local reason = element.message or (failures[element] and failures[element].text)
        write("  " .. paint("33", "-") .. " " .. name .. " (pending" .. (type(reason) == "string" and reason ~= "" and (": " .. reason) or "") .. ")\n")
      else
        write("  " .. paint("31", "✗") .. " " .. name .. (status == "error" and " (error)" or "") .. "\n")
        local failure = failures[element] or {}
        write(indent(message(failure.text), "      ") .. "\n")
        if settings.verbose and failure.trace and failure.trace.traceback then
          write(indent((failure.trace.traceback:gsub("^\n", "")), "      ") .. "\n")
        end
      end
      failures[element] = nil
      if printed ~= "" then
        write(indent((printed:gsub("\n$", "")), "    │ ") .. "\n")
      end
      return nil, true
    end

    -- Errors outside tests: a file that does not load, a failing describe body or hook.
    handler.blockError = function(element, _, text, trace)
      local descriptor = element.descriptor
      if descriptor == "it" or descriptor == "output" or descriptor == "helper" then return nil, true end
      -- (busted's core, which finds an element's file, is the host's: `require "busted"` is its API)
      local file = settings.fileOf(element)
      showFile(file ~= "" and file or nil)
      -- Under the test a before_each/after_each ran for, or the block of the failing body or hook.
      local place, kind = settings.errorPlace(element)
      write("  " .. paint("31", "✗") .. " " .. place .. (kind == "file" and " (error)" or (" (error in " .. kind .. ")")) .. "\n")
      write(indent(message(text), "      ") .. "\n")
      if settings.verbose and trace and trace.traceback then
        write(indent((trace.traceback:gsub("^\n", "")), "      ") .. "\n")
      end
      return nil, true
    end

    handler.subscribe = function(self, handlerOptions)
      handler.options = handlerOptions
      require "busted.languages.en"
      busted.subscribe({ "file", "start" }, handler.fileStart)
      busted.subscribe({ "test", "start" }, handler.testStart, { predicate = handler.cancelOnPending })
      busted.subscribe({ "test", "end" }, handler.testEnd, { predicate = handler.cancelOnPending })
      busted.subscribe({ "failure", "it" }, handler.testFailure)
      busted.subscribe({ "error", "it" }, handler.testFailure)
      busted.subscribe({ "pending" }, handler.testFailure)
      busted.subscribe({ "error" }, handler.blockError)
      busted.subscribe({ "failure" }, handler.blockError)
      return self
    end

    return handler
  end
end
