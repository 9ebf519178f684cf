/// How a Swift model crosses into Lua for a script role: a typed plan (fast) or `Codable`.
///
/// ```swift
/// LuaConfigurer<Product>(path: "card.lua", bridge: bridge, coding: .plan)     // LuaTableRepresentable
/// LuaConfigurer<Product>(path: "card.lua", bridge: bridge, coding: .codable)  // Encodable
/// ```
public struct LuaModelCoding<Model> {
  let prepare: (Model) throws -> (LuaStackAccess) throws(LuaBridgeError) -> Void
}

extension LuaModelCoding where Model: LuaTableRepresentable {
  /// Pushes through the model's ``LuaTablePlan`` — no `Any`, no reflection, keys interned.
  public static var plan: LuaModelCoding<Model> {
    LuaModelCoding { model in
      { stack in Model.luaPlan.push(model, on: stack.stack) }
    }
  }
}

extension LuaModelCoding where Model: Encodable {
  /// Encodes with ``LuaValueEncoder`` (every `Codable` shape).
  public static var codable: LuaModelCoding<Model> {
    LuaModelCoding { model in
      let value = try LuaValueEncoder(rootName: "model").encode(model)
      return { stack throws(LuaBridgeError) in try stack.stack.push(value, path: LuaPath(root: "model")) }
    }
  }
}
