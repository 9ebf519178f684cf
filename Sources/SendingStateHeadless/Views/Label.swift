/// A headless text label.
///
/// ```swift
/// let title = Label(id: "title", text: "Tea")
/// title.text = "Coffee"
/// ```
@MainActor
open class Label: View {
  /// The displayed text.
  public var text: String

  /// Creates a label.
  public init(id: String? = nil, text: String = "") {
    self.text = text
    super.init(id: id)
  }

  /// `"label"`.
  open override var kind: String { "label" }

  /// `text`.
  open override var renderProperties: [RenderProperty] {
    [.init("text", .string(text))]
  }
}
