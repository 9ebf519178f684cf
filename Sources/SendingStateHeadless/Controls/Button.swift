/// A headless button with a title.
///
/// ```swift
/// let plus = Button(id: "plus", title: "+")
/// plus.simulateTap()   // touchDown, touchUpInside, primaryActionTriggered
/// ```
@MainActor
open class Button: Control {
  /// The title.
  public var title: String

  /// Creates a button.
  public init(id: String? = nil, title: String = "") {
    self.title = title
    super.init(id: id)
  }

  /// `"button"`.
  open override var kind: String { "button" }

  /// `title`, then `enabled`, `selected`.
  open override var renderProperties: [RenderProperty] {
    [.init("title", .string(title))] + super.renderProperties
  }
}
