// What the README's host-tasks snippet uses (scripts/readme-snippets.sh compiles them together).
struct Point: Sendable {
  var latitude: Double
  var longitude: Double
}

struct Geocoder: Sendable {
  func locate(_ place: String) async throws -> Point { Point(latitude: 35, longitude: 135.8) }
}

let geocoder = Geocoder()
