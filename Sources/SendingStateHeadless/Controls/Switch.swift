/// A headless on/off switch.
///
/// ```swift
/// let favorite = Switch(id: "favorite")
/// favorite.simulateSetOn(true)   // fires valueChanged (only because the value changed)
/// ```
@MainActor
open class Switch: Control {
  /// Whether the switch is on. Setting it in code fires nothing.
  public var isOn: Bool

  /// Creates a switch.
  public init(id: String? = nil, isOn: Bool = false) {
    self.isOn = isOn
    super.init(id: id)
  }

  /// `"switch"`.
  open override var kind: String { "switch" }

  /// `isOn`, then `enabled`, `selected`.
  open override var renderProperties: [RenderProperty] {
    [.init("isOn", .bool(isOn))] + super.renderProperties
  }
}
