/// A headless stepper: a value changed by fixed steps within bounds.
///
/// ```swift
/// let count = Stepper(id: "count", value: 1, minimumValue: 0, maximumValue: 9)
/// count.simulateIncrement()   // value 2, fires valueChanged
/// ```
@MainActor
open class Stepper: Slider {
  /// The amount one increment or decrement moves the value (positive).
  public var stepValue: Double

  /// Creates a stepper.
  public init(
    id: String? = nil, value: Double = 0, minimumValue: Double = 0, maximumValue: Double = 100, stepValue: Double = 1
  ) {
    self.stepValue = stepValue
    super.init(id: id, value: value, minimumValue: minimumValue, maximumValue: maximumValue)
  }

  /// `"stepper"`.
  open override var kind: String { "stepper" }

  /// `value`, `min`, `max`, `step`, then `enabled`, `selected`.
  open override var renderProperties: [RenderProperty] {
    var properties = super.renderProperties
    properties.insert(.init("step", .number(stepValue)), at: 3)
    return properties
  }
}
