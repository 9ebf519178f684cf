// What the README's state-rendering snippet uses (scripts/readme-snippets.sh compiles them together).
struct Profile: Equatable {
  var name: String
  var isOnline = false
}

@MainActor let view = ProfileView()
