/// A headless segmented control: titled segments and one selected index.
///
/// ```swift
/// let sort = SegmentedControl(id: "sort", segments: ["Name", "Price"], selectedIndex: 0)
/// sort.simulateSelect(1)   // fires valueChanged
/// ```
@MainActor
open class SegmentedControl: Control {
  /// The segment titles.
  public var segments: [String]
  /// The selected index, 0-based; `-1` for none.
  public var selectedIndex: Int

  /// Creates a segmented control.
  public init(id: String? = nil, segments: [String] = [], selectedIndex: Int = -1) {
    self.segments = segments
    self.selectedIndex = selectedIndex
    super.init(id: id)
  }

  /// `"segmented"`.
  open override var kind: String { "segmented" }

  /// `segments`, `selectedIndex` (0-based, as the property; -1: none), then `enabled`,
  /// `selected`.
  open override var renderProperties: [RenderProperty] {
    [.init("segments", .strings(segments)), .init("selectedIndex", .integer(selectedIndex))] + super.renderProperties
  }
}
