import SendingState
import SendingStateHeadless

/// A configurer written in Lua for a Swift `Configurable` headless view.
///
/// The script returns `function(view, model)`: `view.<id>` are the view's subviews with typed
/// properties (an unknown property or a wrong type is an error naming it) and `model` is the
/// model, read-only. Writes are a transaction: they apply only if the script returns.
///
/// ```swift
/// final class ProductCard: StackView, Configurable {
///   static let script = try! LuaConfigurer<Product>(path: "card.lua", bridge: bridge, coding: .plan)
///   var configurer: (ProductCard, Product) -> Void { Self.script.configurer() }
/// }
/// card.ss.configure(product)   // runs card.lua
/// ```
///
/// ```lua
/// -- card.lua
/// return function(view, model)
///   view.title.text = model.title
///   view.price.text = string.format("%.2f", model.price)
/// end
/// ```
@MainActor
public final class LuaConfigurer<Model> {
  /// The bridge (and runtime) the script runs in.
  public let bridge: LuaViewBridge
  let function: LuaRef
  let coding: LuaModelCoding<Model>
  let name: String

  /// The last error a `configurer` closure swallowed (the core's configure cannot throw).
  public private(set) var lastError: ScriptError?
  /// Called with every error a `configurer` closure swallowed.
  public var onError: ((ScriptError) -> Void)?

  /// Loads the script at `path`, which must return a function.
  public init(path: String, bridge: LuaViewBridge, coding: LuaModelCoding<Model>) throws {
    self.bridge = bridge
    self.coding = coding
    self.name = path
    self.function = try bridge.loadFunction(path, shape: "function(view, model)")
  }

  /// Runs the script on `view` with `model`; throws its error (nothing is written then).
  public func configure(_ view: View, with model: Model) throws {
    let push = try coding.prepare(model)
    let label = "configure (\(view.id.map { "view '\($0)'" } ?? view.kind))"
    try bridge.configure(view, function: function, label: label) { stack throws(LuaBridgeError) in
      try push(LuaStackAccess(stack: stack))
    }
  }

  /// A `configurer` for a `Configurable` view: runs the script, recording errors in ``lastError``.
  public func configurer<V: View>() -> (V, Model) -> Void {
    { [weak self] view, model in
      guard let self else { return }
      do {
        try self.configure(view, with: model)
      } catch {
        let failure = (error as? ScriptError) ?? ScriptError(kind: .runtime, message: "\(error)")
        self.lastError = failure
        self.onError?(failure)
      }
    }
  }
}

/// A weak reference to a view (for per-view caches).
struct WeakView {
  weak var view: View?
}
