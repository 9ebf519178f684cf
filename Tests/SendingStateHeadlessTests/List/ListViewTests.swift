import SendingState
import Testing

@testable import SendingStateHeadless

@MainActor
private final class TitleRow: ListRow {
  let title = Label(id: "title")
  var prepared = 0
  required init() {
    super.init()
    addSubview(title)
  }
  override func prepareForReuse() {
    prepared += 1
    title.text = ""
  }
}

@MainActor
private final class Source: ListDataSource {
  var items: [String]
  var requests: [Int] = []
  init(count: Int) { items = (0..<count).map { "item \($0)" } }
  func numberOfRows(in list: ListView) -> Int { items.count }
  func list(_ list: ListView, rowAt index: Int) -> ListRow {
    requests.append(index)
    let row = list.dequeueReusableRow(withIdentifier: "title", for: index)
    (row as? TitleRow)?.title.text = items[index]
    return row
  }
}

@Suite("ListView: registration, dequeue and cell reuse")
@MainActor
struct ListViewTests {
  fileprivate func make(count: Int, window: Int = 5) -> (ListView, Source) {
    let list = ListView(id: "items", visibleRowLimit: window)
    let source = Source(count: count)
    list.register(TitleRow.self, forReuseIdentifier: "title")
    list.dataSource = source
    list.reloadData()
    return (list, source)
  }

  @Test("reload shows the first window of rows, configured, in index order")
  func reload() {
    let (list, source) = make(count: 20)
    #expect(list.visibleRows.map(\.index) == [0, 1, 2, 3, 4])
    #expect((list.visibleRows[2] as? TitleRow)?.title.text == "item 2")
    #expect(source.requests == [0, 1, 2, 3, 4])
    #expect(list.createdRowCount == 5)
  }

  @Test("scrolling through 100 rows reuses cells: at most one window of rows is ever created")
  func reuseWhileScrolling() {
    let (list, source) = make(count: 100)
    defer { withExtendedLifetime(source) {} }
    for first in stride(from: 0, through: 95, by: 3) {
      list.simulateScroll(toRow: first)
      #expect(list.visibleRows.map { $0.index ?? -1 } == Array(first..<(first + 5)))
      #expect((list.visibleRows.first as? TitleRow)?.title.text == "item \(first)")
    }
    #expect(list.createdRowCount == 5)
    let reused = list.visibleRows.compactMap { $0 as? TitleRow }
    #expect(reused.allSatisfy { $0.reuseCount > 0 && $0.prepared == $0.reuseCount })
  }

  @Test("rows that stay visible are kept, not re-requested")
  func keepsVisibleRows() {
    let (list, source) = make(count: 20)
    let third = list.row(at: 2)
    source.requests.removeAll()
    list.scroll(toRow: 2)
    #expect(list.row(at: 2) === third)
    #expect(source.requests == [5, 6])
  }

  @Test("scrolling is clamped to the content; reloading after data changes recycles")
  func clampAndReload() {
    let (list, source) = make(count: 8)
    list.scroll(toRow: 100)
    #expect(list.firstVisibleIndex == 3)
    #expect(list.visibleRange == 3..<8)
    source.items = ["only"]
    list.reloadData()
    #expect(list.visibleRows.count == 1)
    #expect(list.firstVisibleIndex == 0)
    #expect(list.pooledRowCount == 4)
    #expect(list.createdRowCount == 5)
  }

  @Test("factories register too; identifiers are listed")
  func factories() {
    let list = ListView(visibleRowLimit: 2)
    var made = 0
    list.register(forReuseIdentifier: "custom") {
      made += 1
      return ListRow()
    }
    list.register(TitleRow.self, forReuseIdentifier: "title")
    _ = list.dequeueReusableRow(withIdentifier: "custom", for: 0)
    #expect(made == 1)
    #expect(list.registeredIdentifiers == ["custom", "title"])
  }
}
