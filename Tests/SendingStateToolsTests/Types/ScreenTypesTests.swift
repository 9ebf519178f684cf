import Foundation
import SendingStateLua
import Testing

@testable import SendingStateTools

@Suite("Typed screens")
@MainActor
struct ScreenTypesTests {
  /// The fields of one class of a generated file, as `name type` lines.
  func fields(_ text: String, of name: String) -> [String]? {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: "---@class (exact) \(name)") else { return nil }
    return lines[(start + 1)...].prefix { $0.hasPrefix("---@field ") }.map { String($0.dropFirst("---@field ".count)) }
  }

  func classes(_ text: String) -> [String] {
    text.split(separator: "\n").compactMap { $0.hasPrefix("---@class (exact) ") ? String($0.dropFirst(18)) : nil }
  }

  @Test("attack: an id or key with a line break or a quote stays inside its field's name (no line of its own)")
  func namesStayOnTheirLine() {
    #expect(ScreenTypes.fieldName("count") == "count")
    #expect(ScreenTypes.fieldName("a b") == #"["a b"]"#)
    #expect(ScreenTypes.fieldName("x\n---@class SSLabel") == #"["x\010---@class SSLabel"]"#)
    #expect(ScreenTypes.fieldName("q\"\\\r\u{2028}") == #"["q\"\\\013\8232"]"#)
    #expect(!ScreenTypes.fieldName("a\u{7F}\tb").contains { $0.isNewline || $0 == "\t" })
  }

  @Test("check leaves out *.d.lua definition files only: a screen or spec that starts ---@meta is still checked")
  func definitionFilesOnly() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-meta-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder + "/types", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "---@meta\n---@class X\n".write(toFile: folder + "/types/x.d.lua", atomically: true, encoding: .utf8)
    try "---@meta\nreturn {}\n".write(toFile: folder + "/hidden.lua", atomically: true, encoding: .utf8)
    try "---@meta\nit('x', function() end)\n".write(toFile: folder + "/hidden_spec.lua", atomically: true, encoding: .utf8)
    try "return 1\n".write(toFile: folder + "/plain.d.lua", atomically: true, encoding: .utf8)
    #expect(try Checker.scripts(in: [folder]) == [folder + "/hidden.lua", folder + "/plain.d.lua"])
    #expect(try Checker.scripts(in: [folder], specs: true) == [folder + "/hidden_spec.lua"])
  }

  @Test("the counter's classes: every view id with its kind's class, the state from its schema")
  func counter() throws {
    let text = try ScreenTypes.read(path: repoPath("examples/counter/counter.lua")).definitions
    #expect(classes(text) == ["Counter.View", "Counter.State"])
    #expect(
      fields(text, of: "Counter.View") == [
        "buttons SSStack", "count SSLabel", "minus SSButton", "plus SSButton", "root SSStack", "title SSLabel", "version SSLabel",
      ])
    #expect(fields(text, of: "Counter.State") == ["count integer", "title string"])
  }

  @Test("the tasks' classes: a list's row views are a class of their own, a list of tables in the schema a class of its items")
  func tasks() throws {
    let text = try ScreenTypes.read(path: repoPath("examples/tasks/tasks.lua")).definitions
    #expect(classes(text) == ["Tasks.View", "Tasks.TasksRow", "Tasks.State", "Tasks.State.TasksItem"])
    #expect(fields(text, of: "Tasks.View") == ["add SSButton", "draft SSTextfield", "entry SSStack", "left SSLabel", "root SSStack", "tasks SSList"])
    #expect(fields(text, of: "Tasks.TasksRow") == ["done SSSwitch", "title SSLabel"])
    #expect(fields(text, of: "Tasks.State") == ["draft string", "tasks Tasks.State.TasksItem[]"])
    #expect(fields(text, of: "Tasks.State.TasksItem") == ["done boolean", "title string"])
  }

  func screen(_ source: String, name: String = "typed.lua") throws -> (URL, String) {
    let folder = try temporaryFolder("ss-typed")
    let path = folder.appendingPathComponent(name).path
    try source.write(toFile: path, atomically: true, encoding: .utf8)
    return (folder, path)
  }

  @Test("schema types map to LuaLS: optional, list, table, any, nested tables and lists of scalars")
  func schemaMapping() throws {
    let (folder, path) = try screen(
      """
      return {
        state = { a = "x", n = 1, f = 0.5, ok = true, items = {}, names = {}, box = { w = 1, inner = { deep = "d" } }, free = 1, t = {}, l = {} },
        schema = { a = "string?", n = "integer", f = "number", ok = "boolean", items = { { label = "string" } }, names = { "string" },
          box = { w = "integer", inner = { deep = "string" } }, free = "any", t = "table", l = "list" },
        layout = function(ui) return ui.stack { id = "root" } end,
        configure = function() end,
      }
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let types = try ScreenTypes.read(path: path)
    #expect(types.fromSchema)
    let text = types.definitions
    #expect(
      fields(text, of: "Typed.State") == [
        "a string?", "box Typed.State.Box", "f number", "free any", "items Typed.State.ItemsItem[]", "l any[]", "n integer",
        "names string[]", "ok boolean", "t table",
      ])
    #expect(fields(text, of: "Typed.State.Box") == ["inner Typed.State.BoxInner", "w integer"])
    #expect(fields(text, of: "Typed.State.BoxInner") == ["deep string"])
    #expect(fields(text, of: "Typed.State.ItemsItem") == ["label string"])
  }

  @Test("without a schema the state class comes from the start state")
  func inferred() throws {
    let (folder, path) = try screen(
      """
      return {
        state = { name = "n", count = 2, ratio = 0.25, on = false, tags = { "a" }, rows = { { id = 1 } }, empty = {}, odd_key = 1, ["x-y"] = 2 },
        layout = function(ui) return ui.stack { id = "root", ui.slider { id = "level" } } end,
        configure = function() end,
      }
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let types = try ScreenTypes.read(path: path)
    #expect(!types.fromSchema)
    #expect(
      fields(types.definitions, of: "Typed.State") == [
        "count integer", "empty table", "name string", "odd_key integer", "on boolean", "ratio number", "rows Typed.State.RowsItem[]",
        "tags string[]", "[\"x-y\"] integer",
      ])
    #expect(fields(types.definitions, of: "Typed.State.RowsItem") == ["id integer"])
    #expect(fields(types.definitions, of: "Typed.View") == ["level SSSlider", "root SSStack"])
  }

  @Test("a screen whose layout fails is an error naming file:line, and stubs writes nothing")
  func brokenLayout() throws {
    let (folder, path) = try screen(
      """
      return {
        state = {},
        layout = function(ui)
          return ui.stack { id = "root", ui.nosuchkind { id = "x" } }
        end,
        configure = function() end,
      }
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let project = folder.appendingPathComponent("out").path
    #expect(throws: ToolError.self) { try ScreenTypes.read(path: path) }
    // Named: an error at its line, and nothing written.
    do {
      try StubGenerator.write(project: project, screens: [path])
      Issue.record("a broken screen was typed")
    } catch {
      #expect("\(error)".contains("\(path):4:"), "\(error)")
    }
    #expect(!FileManager.default.fileExists(atPath: project + "/types"))
    #expect(!FileManager.default.fileExists(atPath: project + "/.luarc.json"))
    // Found in a folder: left out with a warning at its line; the host's stubs are written.
    var warnings: [String] = []
    let written = try StubGenerator.write(project: project, screens: [folder.path], warn: { warnings.append($0) })
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("left out of the screen types") == true, "\(warnings)")
    #expect(warnings.first?.contains("\(path):4:") == true, "\(warnings)")
    #expect(written.contains(project + "/types/sendingstate.d.lua"))
    #expect(!FileManager.default.fileExists(atPath: project + "/types/screens"))
  }

  @Test("two screens never get one file or class: joined folder names and PascalCase clashes go deeper, then take a number")
  func namesNeverClash() {
    let names = StubGenerator.names(for: ["/p/one/b_c.lua", "/p/b/c.lua", "/p/other/c.lua", "/p/x/my-list.lua", "/p/x/my_list.lua"])
    #expect(Set(names.values).count == 5, "\(names)")
    #expect(Set(names.values.map(ScreenTypes.pascal)).count == 5, "\(names)")
    #expect(names["/p/x/my-list.lua"] != nil && names["/p/x/my_list.lua"] != nil)
    // Unique names stay short.
    #expect(StubGenerator.names(for: ["/p/a/counter.lua", "/p/b/tasks.lua"]) == ["/p/a/counter.lua": "counter", "/p/b/tasks.lua": "tasks"])
    #expect(StubGenerator.names(for: ["/p/a/demo.lua", "/p/b/demo.lua"]) == ["/p/a/demo.lua": "a_demo", "/p/b/demo.lua": "b_demo"])
  }

  @Test(".luarc.json is merged: the user's keys and entries kept, ours added; nothing missing leaves the file alone")
  func luarcMerge() throws {
    let user = #"{ "workspace.library": ["lib"], "diagnostics.disable": ["lowercase-global"], "runtime.version": "Lua 5.3" }"#
    let merged = try #require(try StubGenerator.mergedLuarc(user))
    let json = try #require(try JSONSerialization.jsonObject(with: Data(merged.utf8)) as? [String: Any])
    #expect(json["diagnostics.disable"] as? [String] == ["lowercase-global"])
    #expect(json["runtime.version"] as? String == "Lua 5.3")
    #expect((json["workspace.library"] as? [String])?.prefix(2) == ["lib", "types"])
    #expect((json["diagnostics.globals"] as? [String])?.contains("describe") == true)
    // The nested form is merged where it is.
    let nested = try #require(try StubGenerator.mergedLuarc(#"{ "workspace": { "library": ["lib"], "checkThirdParty": false } }"#))
    let nestedJSON = try #require(try JSONSerialization.jsonObject(with: Data(nested.utf8)) as? [String: Any])
    let workspace = try #require(nestedJSON["workspace"] as? [String: Any])
    #expect((workspace["library"] as? [String])?.first == "lib")
    #expect((workspace["library"] as? [String])?.contains("types") == true)
    #expect(workspace["checkThirdParty"] as? Bool == false)
    #expect(nestedJSON["workspace.library"] == nil)
    // Ours already: nothing to write.
    #expect(try StubGenerator.mergedLuarc(StubGenerator.luarc) == nil)
    #expect(try StubGenerator.mergedLuarc(merged) == nil)
  }

  @Test("a malformed .luarc.json is refused, named, and left as it is")
  func luarcMalformed() throws {
    let folder = try temporaryFolder("ss-luarc")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent(".luarc.json").path
    for broken in [#"{ "workspace.library": ["#, "[1, 2]", #"{ "workspace.library": "types" }"#] {
      try broken.write(toFile: path, atomically: true, encoding: .utf8)
      do {
        try StubGenerator.write(project: folder.path)
        Issue.record("accepted \(broken)")
      } catch {
        #expect("\(error)".contains(path), "\(error)")
      }
      #expect(try String(contentsOfFile: path, encoding: .utf8) == broken)
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("types").path))
  }

  @Test("the committed types/screens are what stubs writes for the examples, and each example's annotations name its classes")
  func committedExamples() throws {
    let screens = try StubGenerator.screens(in: [repoPath("examples")])
    let names = StubGenerator.names(for: screens)
    #expect(screens.count == 7)
    let committed = try FileManager.default.contentsOfDirectory(atPath: repoPath("types/screens")).sorted()
    #expect(committed == names.values.map { $0 + ".d.lua" }.sorted())
    for screen in screens {
      let name = try #require(names[screen])
      let shown = String(screen.dropFirst(repositoryRoot.path.count + 1))
      let types = try ScreenTypes.read(path: screen, prefix: ScreenTypes.pascal(name), shown: shown)
      let file = "types/screens/\(name).d.lua"
      #expect(try String(contentsOfFile: repoPath(file), encoding: .utf8) == types.definitions, "run `sendingstate stubs --out . examples`: \(file)")
      // Every class a ---@param of the screen names is one it has (or the host's).
      let source = try String(contentsOfFile: screen, encoding: .utf8)
      let named = source.split(separator: "\n").compactMap { line -> String? in
        let parts = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
        return parts.count >= 3 && parts[0] == "---@param" ? String(parts[2]) : nil
      }
      let known = Set(types.classes.map(\.name) + types.classes.map { $0.name + "[]" })
      for type in named where !type.hasPrefix("SS") && type != "string" {
        #expect(known.contains(type), "\(shown) names \(type), not among \(known.sorted())")
      }
      let annotated = !named.isEmpty
      if shown != "examples/plugins/rating/demo.lua" {
        #expect(annotated, "\(shown) carries no annotations")
        #expect(source.contains("---@param view \(types.viewClass)"), "\(shown)")
      }
    }
  }

  @Test("init's screen carries the annotations of the classes init writes for it")
  func template() throws {
    let folder = try temporaryFolder("ss-typed-init")
    defer { try? FileManager.default.removeItem(at: folder) }
    let project = folder.appendingPathComponent("hello").path
    try ProjectTemplate.write(into: project)
    let types = try String(contentsOfFile: project + "/types/screens/screen.d.lua", encoding: .utf8)
    #expect(classes(types) == ["Screen.View", "Screen.State"])
    #expect(fields(types, of: "Screen.View") == ["count SSLabel", "plus SSButton", "root SSStack"])
    #expect(ProjectTemplate.screen.contains("---@param view Screen.View"))
    #expect(ProjectTemplate.screen.contains("---@param state Screen.State"))
  }
}
