/// Supplies a ``ListView`` with its row count and its rows.
///
/// Dequeue rows from the list so it can reuse them:
///
/// ```swift
/// func numberOfRows(in list: ListView) -> Int { products.count }
/// func list(_ list: ListView, rowAt index: Int) -> ListRow {
///   let row = list.dequeueReusableRow(withIdentifier: "product", for: index) as! ProductRow
///   row.name.text = products[index].name
///   return row
/// }
/// ```
@MainActor
public protocol ListDataSource: AnyObject {
  /// The number of rows.
  func numberOfRows(in list: ListView) -> Int
  /// The configured row for `index` (0-based).
  func list(_ list: ListView, rowAt index: Int) -> ListRow
}

/// Plans a list's window itself: asked to scroll, it decides which rows show which items and
/// calls ``ListView/show(rows:count:first:)`` (or leaves the window as it is).
@MainActor
public protocol ListWindowControlling: AnyObject {
  /// The list wants its first visible row to be `first` (0-based, already clamped).
  func list(_ list: ListView, scrollTo first: Int)
}
