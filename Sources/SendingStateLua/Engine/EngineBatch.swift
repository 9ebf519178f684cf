import CLua
import CLuaShim
import Foundation

/// What one event changed, as the kernel committed it. The host applies it and nothing in it
/// can fail: every value was checked in Lua, where the error could name the script's line.
struct EngineBatch {
  /// A view the event built (parents are listed before children).
  struct Creation {
    let vid: Int
    let kind: String
    let id: String?
    /// For unit hosts: the section and unit (1-based) of the payload, and whether a Swift
    /// renderer draws it.
    let section: Int
    let unit: Int
    let swift: Bool
  }

  /// A property the event changed.
  struct Write {
    let vid: Int
    let property: String
    let value: LuaValue
  }

  /// A new `on(...)` registration: the host (screen, row, unit) whose handler receives it.
  struct Registration {
    let host: Int
    let sender: Int
    let key: Int
  }

  /// A list's window after the event: its row count, first row and the rows it shows.
  struct Window {
    let list: Int
    let count: Int
    let first: Int
    let rows: [(host: Int, index: Int)]
  }

  /// Async work to start once the event is committed.
  enum Effect {
    case after(seconds: Double, actions: [LuaValue], options: EffectOptions)
    /// `hosts`: every connection the fetch makes is held to them (the asker's net grant).
    /// `method`, `headers` and `body` as the kernel checked them (a GET without them unless
    /// the script gave them; the body's one copy outside the Lua heap).
    case fetch(
      url: String, method: String, headers: [String: String], body: Data?, ok: String, fail: String, hosts: [String],
      options: EffectOptions)
    /// A task the host app registered (`store:run`): its name, input and result actions.
    case task(name: String, input: LuaValue, ok: String, fail: String, options: EffectOptions)
    case cancel(id: String)
    /// A named state's transition: its time, then the kernel hears of its end (by token).
    case transition(seconds: Double, token: Int)
  }

  /// How an effect relates to the others with its id (`store:after(…, { id = … })`).
  struct EffectOptions {
    /// The name `store:cancel` and the options below go by.
    var id: String?
    /// Cancel the running effects with this id first (latest wins).
    var replace = false
    /// Wait this long first; a newer effect with the id replaces this one.
    var debounce: Double?
    /// At most one effect with the id per this many seconds.
    var throttle: Double?
    /// For throttle: keep the latest effect of a window (else the first).
    var latest = true

    init(_ effect: LuaValue) {
      id = effect["id"].stringValue
      replace = effect["replace"].boolValue ?? false
      debounce = effect["debounce"].doubleValue
      throttle = effect["throttle"].doubleValue
      latest = effect["latest"].boolValue ?? true
    }
  }

  var created: [Creation] = []
  var children: [(parent: Int, children: [Int])] = []
  var writes: [Write] = []
  var registrations: [Registration] = []
  var windows: [Window] = []
  var actions: [LuaValue] = []
  var effects: [Effect] = []
  var warnings: [String] = []
  /// Why the event did less than it might: a callback returned no action, middleware dropped
  /// one (the kernel's notes, each naming file:line).
  var quiet: [String] = []
  /// The new state, when the event changed it.
  var state: LuaRef?

  /// Reads the batch table on top of the stack.
  init(reading stack: LuaStack, runtime: LuaRuntime) throws(LuaBridgeError) {
    let L = stack.L
    let table = lua_absindex(L, -1)
    // One copy of each long string across every read of the batch (the batch table on the
    // stack keeps them all alive): actions or writes naming one string a thousand times.
    var strings: [UnsafeRawPointer: String] = [:]
    // (A field's name is a literal: its pointer is the same at every read, so Lua finds the
    // interned string in its cache by address instead of hashing it again.)
    func list(_ name: StaticString, _ body: (Int32, Int) throws(LuaBridgeError) -> Void) throws(LuaBridgeError) {
      guard sslua_rawgetliteral(L, table, UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == LUA_TTABLE else {
        stack.pop()
        return
      }
      let items = lua_gettop(L)
      let count = Int(lua_rawlen(L, items))
      try body(items, count)
      stack.pop()
    }
    func integer(_ items: Int32, _ position: Int) -> Int {
      lua_rawgeti(L, items, lua_Integer(position))
      defer { stack.pop() }
      return Int(lua_tointegerx(L, -1, nil))
    }
    func string(_ items: Int32, _ position: Int) -> String {
      lua_rawgeti(L, items, lua_Integer(position))
      defer { stack.pop() }
      return stack.string(at: -1) ?? ""
    }
    try list("created") { items, count throws(LuaBridgeError) in
      var position = 1
      while position + 5 <= count {
        lua_rawgeti(L, items, lua_Integer(position + 5))
        let swift = lua_toboolean(L, -1) != 0
        stack.pop()
        lua_rawgeti(L, items, lua_Integer(position + 2))
        let id = stack.string(at: -1)
        stack.pop()
        created.append(
          Creation(
            vid: integer(items, position), kind: string(items, position + 1), id: id, section: integer(items, position + 3),
            unit: integer(items, position + 4), swift: swift))
        position += 6
      }
    }
    try list("children") { items, count throws(LuaBridgeError) in
      var position = 1
      while position < count {
        let parent = integer(items, position)
        let number = integer(items, position + 1)
        children.append((parent, (0..<number).map { integer(items, position + 2 + $0) }))
        position += 2 + number
      }
    }
    try list("writes") { items, count throws(LuaBridgeError) in
      var position = 1
      while position + 2 <= count {
        let vid = integer(items, position)
        let property = string(items, position + 1)
        var value = LuaValue.nil
        if property != "rows" {  // the engine plans rows; their items stay in Lua
          // Most writes are scalars the kernel checked: read directly (a table goes the checked way).
          switch lua_rawgeti(L, items, lua_Integer(position + 2)) {
          case LUA_TSTRING: value = .string(stack.string(at: -1) ?? "")
          case LUA_TBOOLEAN: value = .boolean(lua_toboolean(L, -1) != 0)
          case LUA_TNUMBER where lua_isinteger(L, -1) != 0: value = .integer(lua_tointegerx(L, -1, nil))
          case LUA_TNIL: value = .nil
          default: value = try stack.value(at: -1, path: LuaPath(root: property), sharing: &strings)
          }
          stack.pop()
          // A long text the views showed before, in an earlier event, is that buffer again.
          if case .string(let text) = value, text.utf8.count >= LongStrings.minimum {
            value = .string(runtime.longStrings.intern(text))
          }
        }
        writes.append(Write(vid: vid, property: property, value: value))
        position += 3
      }
    }
    try list("regs") { items, count throws(LuaBridgeError) in
      var position = 1
      while position + 2 <= count {
        registrations.append(
          Registration(host: integer(items, position), sender: integer(items, position + 1), key: integer(items, position + 2)))
        position += 3
      }
    }
    try list("lists") { items, count throws(LuaBridgeError) in
      var position = 1
      while position + 3 <= count {
        let listVid = integer(items, position)
        let rowCount = integer(items, position + 1)
        let first = integer(items, position + 2)
        let shown = integer(items, position + 3)
        var rows: [(host: Int, index: Int)] = []
        for offset in 0..<shown {
          rows.append((integer(items, position + 4 + 2 * offset), integer(items, position + 5 + 2 * offset)))
        }
        windows.append(Window(list: listVid, count: rowCount, first: first, rows: rows))
        position += 4 + 2 * shown
      }
    }
    try list("actions") { items, count throws(LuaBridgeError) in
      for position in 1...max(1, count) where position <= count {
        lua_rawgeti(L, items, lua_Integer(position))
        actions.append(try stack.value(at: -1, path: LuaPath(root: "action"), sharing: &strings))
        stack.pop()
      }
    }
    try list("warnings") { items, count throws(LuaBridgeError) in
      for position in 1...max(1, count) where position <= count { warnings.append(string(items, position)) }
    }
    try list("quiet") { items, count throws(LuaBridgeError) in
      for position in 1...max(1, count) where position <= count { quiet.append(string(items, position)) }
    }
    try list("effects") { items, count throws(LuaBridgeError) in
      for position in 1...max(1, count) where position <= count {
        lua_rawgeti(L, items, lua_Integer(position))
        let effect = try stack.value(at: -1, path: LuaPath(root: "effect"), sharing: &strings)
        stack.pop()
        switch effect["kind"].stringValue {
        case "after":
          effects.append(
            .after(
              seconds: effect["seconds"].doubleValue ?? 0, actions: effect["actions"].tableValue?.sequence ?? [],
              options: EffectOptions(effect)))
        case "fetch":
          effects.append(
            .fetch(
              url: effect["url"].stringValue ?? "", method: effect["method"].stringValue ?? "GET",
              headers: effect["headers"].tableValue?.fields.compactMapValues(\.stringValue) ?? [:],
              body: effect["body"].stringValue.map { Data($0.utf8) }, ok: effect["ok"].stringValue ?? "", fail: effect["fail"].stringValue ?? "",
              hosts: effect["hosts"].tableValue?.sequence.compactMap(\.stringValue) ?? [],
              options: EffectOptions(effect)))
        case "task":
          effects.append(
            .task(
              name: effect["name"].stringValue ?? "", input: effect["input"], ok: effect["ok"].stringValue ?? "",
              fail: effect["fail"].stringValue ?? "", options: EffectOptions(effect)))
        case "cancel":
          if let id = effect["id"].stringValue { effects.append(.cancel(id: id)) }
        case "transition":
          effects.append(.transition(seconds: effect["seconds"].doubleValue ?? 0, token: effect["token"].intValue ?? 0))
        default:
          break
        }
      }
    }
    if sslua_rawgetliteral(L, table, "state") == LUA_TTABLE {
      state = LuaRef(runtime: runtime, reference: stack.ref())
    } else {
      stack.pop()
    }
  }
}
