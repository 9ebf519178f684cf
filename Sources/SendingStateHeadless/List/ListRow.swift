/// A reusable row of a ``ListView`` (the `UITableViewCell` role).
///
/// Subclass it, build the row's views in `init()`, and reset transient state in
/// ``prepareForReuse()``:
///
/// ```swift
/// final class ProductRow: ListRow {
///   let name = Label(id: "name")
///   required init() { super.init(); addSubview(name) }
/// }
/// ```
@MainActor
open class ListRow: View {
  /// The identifier the row was registered under (set by the list).
  public internal(set) var reuseIdentifier: String?
  /// The data index the row shows, while it is visible (0-based).
  public internal(set) var index: Int?
  /// How many times the row has been reused for another index.
  public internal(set) var reuseCount = 0
  /// The index the row showed last (kept while it waits for reuse).
  var shownIndex: Int?

  /// Creates an empty row.
  public required init() {
    super.init(id: nil)
  }

  /// Called before the list hands the row out again; reset transient state here.
  open func prepareForReuse() {}

  /// `"row"`.
  open override var kind: String { "row" }

  /// `index` (0-based, as the property; null while the row waits for reuse).
  open override var renderProperties: [RenderProperty] {
    [.init("index", index.map { .integer($0) } ?? .null)]
  }
}
