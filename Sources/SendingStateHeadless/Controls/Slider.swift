/// A headless slider with a value between a minimum and a maximum.
///
/// ```swift
/// let quantity = Slider(id: "quantity", value: 1, minimumValue: 0, maximumValue: 10)
/// quantity.simulateValue(4)   // fires valueChanged
/// ```
@MainActor
open class Slider: Control {
  /// The lowest value.
  public var minimumValue: Double {
    didSet { value = clamped(value) }
  }
  /// The highest value.
  public var maximumValue: Double {
    didSet { value = clamped(value) }
  }
  /// The value, kept within the bounds. Setting it in code fires nothing.
  public var value: Double {
    didSet {
      let bounded = clamped(value)
      if bounded != value { value = bounded }
    }
  }

  /// Creates a slider (the value is clamped to the bounds).
  public init(id: String? = nil, value: Double = 0, minimumValue: Double = 0, maximumValue: Double = 1) {
    self.minimumValue = minimumValue
    self.maximumValue = Swift.max(minimumValue, maximumValue)
    self.value = Swift.min(Swift.max(value, minimumValue), Swift.max(minimumValue, maximumValue))
    super.init(id: id)
  }

  /// `value` clamped to `minimumValue...maximumValue`.
  public func clamped(_ value: Double) -> Double {
    Swift.min(Swift.max(value, minimumValue), Swift.max(minimumValue, maximumValue))
  }

  /// `"slider"`.
  open override var kind: String { "slider" }

  /// `value`, `min`, `max`, then `enabled`, `selected`.
  open override var renderProperties: [RenderProperty] {
    [.init("value", .number(value)), .init("min", .number(minimumValue)), .init("max", .number(maximumValue))]
      + super.renderProperties
  }
}
