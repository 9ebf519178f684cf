/// A headless single-line text field.
///
/// ```swift
/// let search = TextField(id: "search", placeholder: "Search")
/// search.simulateTyping("tea")   // editingDidBegin, editingChanged ×3, editingDidEnd
/// ```
@MainActor
open class TextField: Control {
  /// The text. Setting it in code fires nothing.
  public var text: String
  /// The hint shown when the text is empty.
  public var placeholder: String
  /// Whether the field hides what is typed (a password field; UIKit's `isSecureTextEntry`).
  /// The text itself is unchanged: pictures and the preview page mask it.
  public var isSecure = false
  /// Whether the field is being edited.
  public internal(set) var isEditing = false

  /// Creates a text field.
  public init(id: String? = nil, text: String = "", placeholder: String = "") {
    self.text = text
    self.placeholder = placeholder
    super.init(id: id)
  }

  /// `"textfield"`.
  open override var kind: String { "textfield" }

  /// `text`, `placeholder`, `secure` (only when on), then `enabled`, `selected`.
  open override var renderProperties: [RenderProperty] {
    [.init("text", .string(text)), .init("placeholder", .string(placeholder))]
      + (isSecure ? [.init("secure", .bool(true))] : []) + super.renderProperties
  }
}
