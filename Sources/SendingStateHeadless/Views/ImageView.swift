/// A headless image, identified by name (nothing is decoded).
///
/// ```swift
/// let icon = ImageView(id: "icon", imageName: "star.fill")
/// ```
@MainActor
open class ImageView: View {
  /// The image's name, or `nil` for no image.
  public var imageName: String?

  /// Creates an image view.
  public init(id: String? = nil, imageName: String? = nil) {
    self.imageName = imageName
    super.init(id: id)
  }

  /// `"image"`.
  open override var kind: String { "image" }

  /// `image`.
  open override var renderProperties: [RenderProperty] {
    [.init("image", imageName.map(RenderValue.string) ?? .null)]
  }
}
