/// A headless list with registered row types, a data source and **cell reuse**.
///
/// Only a window of ``visibleRowLimit`` rows exists as views. Scrolling moves the window: rows
/// that leave it go to a reuse pool per identifier, and rows that enter it are asked from the
/// data source, which dequeues (reuses) them:
///
/// ```swift
/// let list = ListView(id: "items", visibleRowLimit: 5)
/// list.register(ProductRow.self, forReuseIdentifier: "product")
/// list.dataSource = source
/// list.reloadData()
/// list.simulateScroll(toRow: 40)
/// ```
@MainActor
open class ListView: View {
  /// The data source (held weakly).
  public weak var dataSource: (any ListDataSource)?
  /// Plans the window itself when set (held weakly): ``scroll(toRow:)`` asks it, and it shows
  /// rows with ``show(rows:count:first:)``. For engines that keep their own rows and reuse.
  public weak var windowController: (any ListWindowControlling)?
  /// How many rows are visible at once (the viewport).
  public var visibleRowLimit: Int
  /// The index of the first visible row.
  public private(set) var firstVisibleIndex = 0
  /// The number of rows reported at the last reload.
  public private(set) var numberOfRows = 0

  private var factories: [String: @MainActor () -> ListRow] = [:]
  private var reusePool: [String: [ListRow]] = [:]
  /// How many rows the list has created (reuse keeps this near ``visibleRowLimit``).
  public private(set) var createdRowCount = 0

  /// Creates a list.
  public init(id: String? = nil, visibleRowLimit: Int = 10) {
    self.visibleRowLimit = Swift.max(1, visibleRowLimit)
    super.init(id: id)
  }

  /// `"list"`.
  open override var kind: String { "list" }

  // MARK: - Registration and dequeue

  /// Registers a row class under `identifier`.
  public func register(_ rowType: ListRow.Type, forReuseIdentifier identifier: String) {
    factories[identifier] = { rowType.init() }
  }

  /// Registers a row factory under `identifier`.
  public func register(forReuseIdentifier identifier: String, factory: @escaping @MainActor () -> ListRow) {
    factories[identifier] = factory
  }

  /// The registered identifiers, sorted.
  public var registeredIdentifiers: [String] { factories.keys.sorted() }

  /// A row for `index`: a pooled one (after ``ListRow/prepareForReuse()``) or a new one.
  ///
  /// Registering the identifier first is a programming error, reported with the known ones.
  public func dequeueReusableRow(withIdentifier identifier: String, for index: Int) -> ListRow {
    let row: ListRow
    if var pool = reusePool[identifier], !pool.isEmpty {
      row = pool.removeLast()
      reusePool[identifier] = pool
      row.reuseCount += 1
      row.prepareForReuse()
    } else {
      guard let factory = factories[identifier] else {
        preconditionFailure(
          "ListView '\(id ?? "?")': no row registered for '\(identifier)'; registered: \(registeredIdentifiers)")
      }
      row = factory()
      row.reuseIdentifier = identifier
      createdRowCount += 1
    }
    row.index = index
    return row
  }

  /// The pooled rows waiting for reuse.
  public var pooledRowCount: Int { reusePool.values.reduce(0) { $0 + $1.count } }

  // MARK: - Visible rows

  /// The visible rows, in index order.
  public var visibleRows: [ListRow] { subviews.compactMap { $0 as? ListRow } }

  /// The visible row showing `index`, or `nil` if it is not visible.
  public func row(at index: Int) -> ListRow? {
    visibleRows.first { $0.index == index }
  }

  /// The range of visible indices.
  public var visibleRange: Range<Int> {
    let start = Swift.min(firstVisibleIndex, numberOfRows)
    return start..<Swift.min(start + visibleRowLimit, numberOfRows)
  }

  /// Asks the data source again: every visible row is recycled and the window refilled.
  public func reloadData() {
    numberOfRows = Swift.max(0, dataSource?.numberOfRows(in: self) ?? 0)
    firstVisibleIndex = clampedFirstIndex(firstVisibleIndex)
    recycle(visibleRows)
    fill(visibleRange)
  }

  /// Moves the window so `index` is the first visible row (clamped to the content).
  public func scroll(toRow index: Int) {
    if let windowController {
      windowController.list(self, scrollTo: clampedFirstIndex(index))
      return
    }
    let target = clampedFirstIndex(index)
    guard target != firstVisibleIndex else { return }
    firstVisibleIndex = target
    let wanted = visibleRange
    recycle(visibleRows.filter { !wanted.contains($0.index ?? -1) })
    let present = Set(visibleRows.compactMap(\.index))
    fill(wanted, skipping: present)
  }

  /// Shows exactly `rows` (each with the data index it shows) out of `count`, the window
  /// starting at `first`: what a ``windowController`` calls. Rows that leave the window are
  /// removed (they belong to the controller, not to the reuse pool).
  public func show(rows: [(row: ListRow, index: Int)], count: Int, first: Int) {
    numberOfRows = Swift.max(0, count)
    firstVisibleIndex = Swift.max(0, first)
    for row in visibleRows {
      row.removeFromSuperview()
      row.index = nil
    }
    for (row, index) in rows.sorted(by: { $0.index < $1.index }) {
      if row.reuseIdentifier == nil {
        row.reuseIdentifier = "controlled"
        createdRowCount += 1
      } else if row.shownIndex != index {
        row.reuseCount += 1
        row.prepareForReuse()
      }
      row.index = index
      row.shownIndex = index
      addSubview(row)
    }
  }

  private func clampedFirstIndex(_ index: Int) -> Int {
    Swift.max(0, Swift.min(index, numberOfRows - visibleRowLimit))
  }

  private func recycle(_ rows: [ListRow]) {
    for row in rows {
      row.removeFromSuperview()
      row.index = nil
      if let identifier = row.reuseIdentifier {
        reusePool[identifier, default: []].append(row)
      }
    }
  }

  private func fill(_ range: Range<Int>, skipping present: Set<Int> = []) {
    guard let dataSource else { return }
    for index in range where !present.contains(index) {
      let row = dataSource.list(self, rowAt: index)
      row.index = index
      let position = visibleRows.firstIndex { ($0.index ?? 0) > index } ?? visibleRows.count
      insertSubview(row, at: position)
    }
  }

  /// `rows`, `first` (0-based, as ``firstVisibleIndex``), `visible`.
  open override var renderProperties: [RenderProperty] {
    [
      .init("rows", .integer(numberOfRows)), .init("first", .integer(firstVisibleIndex)),
      .init("visible", .integer(visibleRange.count)),
    ]
  }
}
