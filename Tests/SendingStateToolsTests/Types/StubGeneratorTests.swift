import Foundation
import SendingStateLua
import SendingStateTestSupport
import SendingStatePlugins
import Testing

@testable import SendingStateTools

@Suite("LuaLS stubs")
@MainActor
struct StubGeneratorTests {
  @Test("every view kind has a class with its fields, builders take per-kind props, SSAnyView has every field")
  func everyKind() throws {
    let stubs = StubGenerator.stubs
    let any = try #require(section(stubs, "---@class SSAnyView: SSView"))
    for kind in LuaHostAPI.viewKinds {
      let own = try #require(section(stubs, "---@class \(StubGenerator.className(kind.name))"), "kind \(kind.name)")
      for property in kind.properties {
        let home = StubGenerator.sharedProperties.contains(property.name) ? try #require(section(stubs, "---@class SSView")) : own
        #expect(home.contains("---@field \(property.name) \(property.luaType) "), "\(kind.name).\(property.name)")
        if !StubGenerator.sharedProperties.contains(property.name) {
          #expect(any.contains("---@field \(property.name) "), "SSAnyView.\(property.name)")
        }
      }
      if kind.hasBuilder {
        #expect(stubs.contains("---@field \(kind.name) fun(props: \(StubGenerator.propsName(kind.name))): \(StubGenerator.className(kind.name))"))
        let props = try #require(section(stubs, "---@class \(StubGenerator.propsName(kind.name))"))
        for property in kind.properties where property.writable {
          #expect(props.contains("---@field \(property.name) "), "\(kind.name) props: \(property.name)")
        }
        #expect(props.contains("---@field [integer] SSView"))
      }
    }
    for member in LuaHostAPI.storeMethods + LuaHostAPI.listBuilderFunctions {
      #expect(stubs.contains("---@field \(member.name) "), "\(member.name)")
    }
    for member in LuaHostAPI.screenFields {
      #expect(try #require(section(stubs, "---@class SSScreenTable")).contains("---@field \(member.name) "))
    }
  }

  @Test("views and senders are typed (view.count.text, sender.isOn), actions are tables with a type")
  func typedViewsAndActions() throws {
    let stubs = StubGenerator.stubs
    #expect(stubs.contains("---@class SSViews\n---@field [string] SSAnyView"))
    #expect(stubs.contains("---@field configure fun(view: SSViews, state: table, old: table?)"))
    #expect(stubs.contains("callback: fun(state: table, sender: SSAnyView, phase: string)"))
    let any = try #require(section(stubs, "---@class SSAnyView: SSView"))
    #expect(any.contains("---@field text string "))
    #expect(any.contains("---@field isOn boolean "))
    #expect(stubs.contains("---@class SSActionTable\n---@field type string"))
    #expect(stubs.contains("---@alias SSAction string|SSActionTable"))
  }

  @Test("require \"sendingstate\" is typed: the file returns the module")
  func requireTyped() {
    let stubs = StubGenerator.stubs
    #expect(stubs.hasPrefix("---@meta sendingstate\n"))
    #expect(stubs.hasSuffix("---@type SSModule\nlocal sendingstate = {}\nreturn sendingstate\n"))
    #expect(stubs.contains("---@field open fun(path: string, options: SSOpenOptions?): SSScreen"))
  }

  @Test("no class is declared twice")
  func uniqueClasses() {
    let names = StubGenerator.stubs.split(separator: "\n").filter { $0.hasPrefix("---@class ") }
      .map { $0.dropFirst("---@class ".count).split(separator: ":")[0].trimmingCharacters(in: .whitespaces) }
    #expect(Set(names).count == names.count, "\(names)")
  }

  @Test("the installed bindings are exactly the registry (no binding without a stub)")
  func bindingsMatchRegistry() throws {
    let screen = try LuaScreen(path: repoPath("examples/counter/counter.lua"))
    #expect(try screen.runtime.evaluate("return require('sendingstate').version") == [.string(LuaHostAPI.version)])
    #expect(Set(screen.installedStoreMethods) == Set(LuaHostAPI.storeMethods.map(\.name)))
    #expect(Set(screen.installedBuilders) == Set(LuaHostAPI.viewKinds.filter(\.hasBuilder).map(\.name)))
  }

  @Test("the committed stubs and .luarc.json are up to date and parse with luac5.4")
  func committedInSync() async throws {
    let committed = try String(contentsOfFile: repoPath("types/sendingstate.d.lua"), encoding: .utf8)
    #expect(committed == StubGenerator.stubs, "run `sendingstate stubs` and commit the result")
    #expect(try String(contentsOfFile: repoPath(".luarc.json"), encoding: .utf8) == StubGenerator.luarc)
    let json = try JSONSerialization.jsonObject(with: Data(StubGenerator.luarc.utf8)) as? [String: Any]
    #expect((json?["workspace.library"] as? [String])?.first == "types")
    let luac = try ChildProcess(executable: "/usr/bin/luac5.4", arguments: ["-p", "types/sendingstate.d.lua"], directory: repositoryRoot.path)
    luac.send("")
    #expect(await luac.wait() == 0, "\(luac.errors)")
    // The built-in Swift plugins' modules, one file each (luac5.4 one file at a time: Debian's
    // crashes when given several with -p).
    for native in BuiltInPlugins.all {
      for module in native.modules {
        let file = "types/\(module.name).lua"
        #expect(try String(contentsOfFile: repoPath(file), encoding: .utf8) == StubGenerator.stub(of: module, plugin: native), "\(file)")
        let check = try ChildProcess(executable: "/usr/bin/luac5.4", arguments: ["-p", file], directory: repositoryRoot.path)
        check.send("")
        #expect(await check.wait() == 0, "\(check.errors)")
      }
    }
  }

  @Test("the committed .luacheckrc is the one init writes, and its screen globals are the sandbox's")
  func luacheckConfig() throws {
    #expect(try String(contentsOfFile: repoPath(".luacheckrc"), encoding: .utf8) == LuacheckConfig.text)
    let runtime = try LuaRuntime()
    for global in LuacheckConfig.sandboxGlobals {
      let probe = global.fields.isEmpty
        ? "return \(global.name) ~= nil"
        : "return " + global.fields.map { "\(global.name).\($0) ~= nil" }.joined(separator: " and ")
      #expect(try runtime.evaluate(probe) == [.boolean(true)], "\(global.name)")
    }
    #expect(throws: ScriptError.self) { try runtime.evaluate("return io") }
    #expect(throws: ScriptError.self) { try runtime.evaluate("return os.execute") }
  }
}

/// The lines of `text` from the line `header` (or `header: Base`) to the next blank line.
private func section(_ text: String, _ header: String) -> String? {
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
  guard let start = lines.firstIndex(where: { $0 == header || $0.hasPrefix(header + ":") }) else { return nil }
  let end = lines[start...].firstIndex(where: \.isEmpty) ?? lines.endIndex
  return lines[start..<end].joined(separator: "\n")
}
