import Testing

@testable import SendingStateLua

@Suite("Did you mean: the known name a misspelt one meant")
struct NameSuggestionTests {
  static let fields = LuaHostAPI.screenFields.map(\.name)

  @Test(
    "misspellings find their field: a swap, a letter missing, one too many, one wrong, case and underscores",
    arguments: [
      ("handel", "handle"), ("layuot", "layout"), ("confgure", "configure"), ("evnets", "events"), ("stat", "state"),
      ("schemaa", "schema"), ("stateName", "state_name"), ("STATE_NAME", "state_name"), ("statetransition", "state_transition"),
      ("capabilites", "capabilities"), ("Layout", "layout"), ("cnofigrue", "configure"), ("handler", "handle"), ("unit", "units"), ("status", "states"),
    ])
  func misspellings(name: String, meant: String) {
    #expect(NameSuggestion.closest(to: name, among: Self.fields) == meant)
  }

  @Test("a known name, or one far from every field, is no misspelling", arguments: ["handle", "helpers", "cache", "title", "x", "", "hand", "lay", "store", "start", "view"])
  func notMisspellings(name: String) {
    #expect(NameSuggestion.closest(to: name, among: Self.fields) == nil)
  }

  @Test("a long key is no misspelling, even one that folds to a field")
  func longKeys() {
    #expect(NameSuggestion.closest(to: String(repeating: "_", count: 100) + "handle", among: Self.fields) == nil)
    #expect(NameSuggestion.closest(to: "_handle", among: Self.fields) == "handle")
  }

  @Test("the distance counts insertions, deletions, substitutions and swaps of neighbours")
  func distance() {
    func d(_ a: String, _ b: String) -> Int { NameSuggestion.editDistance(Array(a), Array(b)) }
    #expect(d("kitten", "sitting") == 3)
    #expect(d("handel", "handle") == 1)
    #expect(d("", "abc") == 3)
    #expect(d("abc", "") == 3)
    #expect(d("abc", "abc") == 0)
    #expect(d("ca", "abc") == 3)  // (optimal string alignment: a swapped pair is not edited again)
  }
}
