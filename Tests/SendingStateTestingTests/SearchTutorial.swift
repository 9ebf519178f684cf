import Foundation
import SendingState
import SendingStateHeadless
import SendingStateTesting
import Testing

// The README's "Stores and effects" tutorial, compiled and run by this suite.
// store-tutorial:begin
/// The search screen's state.
struct Search: Equatable {
  var query = ""
  var results: [String] = []
  var isLoading = false
}

/// What the user (and the search effect) can ask for.
enum SearchAction: Equatable, Sendable {
  case queryChanged(String)
  case loaded([String])
  case failed(String)
}

/// The only code that changes a `Search`. A query waits for 300 ms of quiet typing before it is
/// searched; a newer query replaces the search under way; clearing the field cancels it.
func searchReducer(
  clock: any Clock<Duration>, search: @escaping @Sendable (String) async throws -> [String]
) -> Reducer<Search, SearchAction> {
  Reducer { state, action in
    switch action {
    case .queryChanged(let query):
      state.query = query
      guard !query.isEmpty else {
        state.isLoading = false
        state.results = []
        return .cancel(id: "search")
      }
      state.isLoading = true
      return .run { send in
        send(.loaded(try await search(query)))
      } catch: { error, send in
        send(.failed("\(error)"))
      }
      .debounce(id: "search", for: .milliseconds(300), clock: clock)
    case .loaded(let results):
      state.isLoading = false
      state.results = results
      return .none
    case .failed:
      state.isLoading = false
      state.results = []
      return .none
    }
  }
}

/// The view: a text field for the query and a label for the results.
final class SearchView: StackView, Configurable, EventForwardingProvider {
  let field = TextField(id: "query")
  let results = Label(id: "results")

  init() {
    super.init(id: "search", axis: .vertical, spacing: 8)
    addSubview(field)
    addSubview(results)
  }

  var configurer: (SearchView, Search) -> Void {
    { view, search in
      view.results.text = search.isLoading ? "searching…" : search.results.joined(separator: ", ")
    }
  }

  var eventForwarder: any EventForwardable {
    EventForwarder(field) { field, ctx in
      ctx.control(.editingChanged) { [SearchAction.queryChanged(field.text)] }
    }
  }
}

/// The reducer under test: every state change and every action from effects asserted, on a
/// test clock (no real waiting).
@Test @MainActor func searchWaitsForQuietTyping() async {
  let clock = TestClock()
  let store = TestStore(initialState: Search(), reducer: searchReducer(clock: clock) { query in ["\(query) tea"] })
  await store.send(.queryChanged("gr")) {
    $0.query = "gr"
    $0.isLoading = true
  }
  await clock.advance(by: .milliseconds(200))
  await store.send(.queryChanged("green")) { $0.query = "green" }
  await clock.advance(by: .milliseconds(300))  // only "green" is searched
  await store.receive(.loaded(["green tea"])) {
    $0.isLoading = false
    $0.results = ["green tea"]
  }
}

/// The same reducer behind a headless view, driven like a user would.
@Test @MainActor func searchScreen() async {
  let clock = TestClock()
  let store = ReducerStore(initialState: Search(), reducer: searchReducer(clock: clock) { query in ["\(query) tea"] })
  let view = SearchView()
  store.apply(to: view)  // renders every new state
  view.ss.addActionHandler(to: store)  // the field's actions go to the reducer
  view.field.simulateTyping("oolong")
  #expect(view.results.text == "searching…")
  await clock.advance(by: .milliseconds(300))
  #expect(view.results.text == "oolong tea")
}
// store-tutorial:end

@Test("the README shows exactly the store tutorial that this suite compiles")
func storeTutorialMatchesReadme() throws {
  let here = URL(fileURLWithPath: #filePath)
  let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let source = try String(contentsOf: here, encoding: .utf8)
  let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  let code = try #require(section(of: source, from: "// store-tutorial:begin\n", to: "// store-tutorial:end"))
  let shown = try #require(section(of: readme, from: "<!-- store-tutorial:begin -->\n```swift\n", to: "```\n<!-- store-tutorial:end -->"))
  #expect(shown == code)
}

private func section(of text: String, from start: String, to end: String) -> String? {
  guard let lower = text.range(of: start), let upper = text.range(of: end, range: lower.upperBound..<text.endIndex)
  else { return nil }
  return String(text[lower.upperBound..<upper.lowerBound])
}
