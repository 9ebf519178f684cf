// What the README's named-states snippet uses (scripts/readme-snippets.sh compiles them together).
import SendingState

@MainActor let bar = SearchBar()
@MainActor let fade = Transition<SearchBar> { _, changes, completion in
  changes()
  completion(true)
}
